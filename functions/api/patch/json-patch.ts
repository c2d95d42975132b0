import { deepEqual, isRecord } from '../../../shared/contracts/json.js';
import { BadRequestError, InvalidError, TooLargeError } from '../../../shared/errors/index.js';
import { FORBIDDEN_KEYS } from '../input/structure-limits.js';
import { type PatchBudget, startPatchBudget } from './patch-budget.js';
import { arrayIndex, ownValue, setOwn } from './own-properties.js';

type Operation = { op: string; path: string; value?: unknown; from?: string };

/** Kubernetes refuses JSON patches with more operations than this (apiserver's maxJSONPatchOperations). */
export const MAX_JSON_PATCH_OPERATIONS = 10_000;

/**
 * RFC 6902 JSON Patch over a deep copy of `document`, with bounded work: at most
 * MAX_JSON_PATCH_OPERATIONS operations, a result no larger than the patch budget's byte limit
 * (a chain of `copy` operations doubles a document each step) and a time limit.
 */
export function applyJsonPatch(document: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch)) throw new BadRequestError('a json-patch body must be an array of operations');
  if (patch.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new TooLargeError(`the json patch has ${patch.length} operations; the limit is ${MAX_JSON_PATCH_OPERATIONS}`);
  }
  const budget = startPatchBudget(document);
  let doc = structuredClone(document);
  patch.forEach((raw, index) => {
    budget.checkTime(index, patch.length);
    doc = applyOperation(doc, parseOperation(raw, index), index, budget);
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
  const tokens = path.slice(1).split('/').map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  const forbidden = tokens.find((token) => FORBIDDEN_KEYS.has(token));
  if (forbidden !== undefined) {
    throw new BadRequestError(`json-patch operation ${index}: path ${JSON.stringify(path)} names the forbidden key ${JSON.stringify(forbidden)}`, {
      causes: [{ field: path, reason: 'FieldValueForbidden', message: `the key ${JSON.stringify(forbidden)} is not allowed` }],
    });
  }
  return tokens;
}

function applyOperation(doc: unknown, op: Operation, index: number, budget: PatchBudget): unknown {
  switch (op.op) {
    case 'add':
      return setAt(doc, pointer(op.path, index), op.value, 'add', index);
    case 'replace':
      getAt(doc, pointer(op.path, index), index);
      return setAt(doc, pointer(op.path, index), op.value, 'replace', index);
    case 'remove':
      return removeAt(doc, pointer(op.path, index), index);
    case 'copy': {
      const source = getAt(doc, pointer(op.from ?? '', index), index);
      budget.grow(source);
      return setAt(doc, pointer(op.path, index), structuredClone(source), 'add', index);
    }
    case 'move': {
      const from = pointer(op.from ?? '', index);
      const to = pointer(op.path, index);
      if (to.length > from.length && from.every((token, i) => token === to[i])) {
        throw patchInvalid(index, to, `cannot move ${op.from ?? ''} into itself`);
      }
      const value = getAt(doc, from, index);
      return setAt(removeAt(doc, from, index), to, value, 'add', index);
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
  for (const token of path) {
    current = ownValue(current, token);
    if (current === undefined) throw patchInvalid(index, path, `path /${path.join('/')} does not exist`);
  }
  return current;
}

function setAt(doc: unknown, path: string[], value: unknown, mode: 'add' | 'replace', index: number): unknown {
  if (path.length === 0) return value;
  const parent = getAt(doc, path.slice(0, -1), index);
  const last = path[path.length - 1] ?? '';
  if (Array.isArray(parent)) {
    const position = last === '-' ? parent.length : arrayIndex(last);
    if (position === undefined || position > parent.length || (mode === 'replace' && position === parent.length)) {
      throw patchInvalid(index, path, `index ${last} is out of range`);
    }
    if (mode === 'add') parent.splice(position, 0, value);
    else parent[position] = value;
  } else if (isRecord(parent)) {
    setOwn(parent, last, value);
  } else {
    throw patchInvalid(index, path, `parent of ${last} is not a container`);
  }
  return doc;
}

function removeAt(doc: unknown, path: string[], index: number): unknown {
  if (path.length === 0) throw patchInvalid(index, path, 'cannot remove the whole document');
  getAt(doc, path, index);
  const parent = getAt(doc, path.slice(0, -1), index);
  const last = path[path.length - 1] ?? '';
  if (Array.isArray(parent)) parent.splice(arrayIndex(last) ?? parent.length, 1);
  else if (isRecord(parent)) delete parent[last];
  return doc;
}

/** A 422 naming the field the operation addresses (dotted, as Kubernetes names fields). */
function patchInvalid(index: number, tokens: readonly string[], message: string): InvalidError {
  const field = tokens.length === 0 ? '<root>' : tokens.map((t) => t || '""').join('.');
  return new InvalidError(`json-patch operation ${index}: ${message}`, { causes: [{ field, reason: 'FieldValueInvalid', message }] });
}
