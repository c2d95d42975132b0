import { deepEqual, isRecord } from '../../../shared/contracts/json.js';
import { BadRequestError, InvalidError } from '../../../shared/errors/index.js';

type Operation = { op: string; path: string; value?: unknown; from?: string };

/** RFC 6902 JSON Patch over a deep copy of `document`. */
export function applyJsonPatch(document: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch)) throw new BadRequestError('a json-patch body must be an array of operations');
  let doc = structuredClone(document);
  patch.forEach((raw, index) => {
    const op = parseOperation(raw, index);
    doc = applyOperation(doc, op, index);
  });
  return doc;
}

function parseOperation(raw: unknown, index: number): Operation {
  if (!isRecord(raw) || typeof raw.op !== 'string' || typeof raw.path !== 'string') {
    throw new BadRequestError(`json-patch operation ${index} needs string "op" and "path"`);
  }
  return { op: raw.op, path: raw.path, value: raw.value, ...(typeof raw.from === 'string' ? { from: raw.from } : {}) };
}

function pointer(path: string, index: number): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new BadRequestError(`json-patch operation ${index}: path ${JSON.stringify(path)} must start with "/"`);
  return path.slice(1).split('/').map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function applyOperation(doc: unknown, op: Operation, index: number): unknown {
  switch (op.op) {
    case 'add':
      return setAt(doc, pointer(op.path, index), op.value, 'add', index);
    case 'replace':
      getAt(doc, pointer(op.path, index), index);
      return setAt(doc, pointer(op.path, index), op.value, 'replace', index);
    case 'remove':
      return removeAt(doc, pointer(op.path, index), index);
    case 'copy':
    case 'move': {
      const from = pointer(op.from ?? '', index);
      const value = structuredClone(getAt(doc, from, index));
      const without = op.op === 'move' ? removeAt(doc, from, index) : doc;
      return setAt(without, pointer(op.path, index), value, 'add', index);
    }
    case 'test':
      if (!deepEqual(getAt(doc, pointer(op.path, index), index), op.value)) {
        throw new InvalidError(`json-patch test operation ${index} failed at ${op.path}`, {
          causes: [{ field: op.path, reason: 'FieldValueInvalid', message: 'test operation failed' }],
        });
      }
      return doc;
    default:
      throw new BadRequestError(`json-patch operation ${index}: unknown op ${JSON.stringify(op.op)}`);
  }
}

function getAt(doc: unknown, path: string[], index: number): unknown {
  let current = doc;
  for (const segment of path) {
    if (Array.isArray(current)) current = current[Number(segment)];
    else if (isRecord(current)) current = current[segment];
    else current = undefined;
    if (current === undefined) throw new InvalidError(`json-patch operation ${index}: path /${path.join('/')} does not exist`);
  }
  return current;
}

function setAt(doc: unknown, path: string[], value: unknown, mode: 'add' | 'replace', index: number): unknown {
  if (path.length === 0) return structuredClone(value);
  const parent = getAt(doc, path.slice(0, -1), index);
  const last = path[path.length - 1] ?? '';
  if (Array.isArray(parent)) {
    const position = last === '-' ? parent.length : Number(last);
    if (!Number.isInteger(position) || position < 0 || position > parent.length) {
      throw new InvalidError(`json-patch operation ${index}: index ${last} is out of range`);
    }
    if (mode === 'add') parent.splice(position, 0, structuredClone(value));
    else parent[position] = structuredClone(value);
  } else if (isRecord(parent)) {
    parent[last] = structuredClone(value);
  } else {
    throw new InvalidError(`json-patch operation ${index}: parent of ${last} is not a container`);
  }
  return doc;
}

function removeAt(doc: unknown, path: string[], index: number): unknown {
  getAt(doc, path, index);
  const parent = getAt(doc, path.slice(0, -1), index);
  const last = path[path.length - 1] ?? '';
  if (Array.isArray(parent)) parent.splice(Number(last), 1);
  else if (isRecord(parent)) delete parent[last];
  return doc;
}
