/**
 * RFC 6902 add/replace/remove on a JSON document, as ClusterClass inline patches use them:
 * `add` creates missing parent objects (jsonpatch's EnsurePathExistsOnAdd), array indexes are
 * numbers or `-` (append). Pure: returns a new document; errors name the path.
 */

import { clone, isRecord, type JsonRecord } from '../../../../shared/contracts/json.js';

export class PatchError extends Error {}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function pointerTokens(path: string): string[] {
  if (!path.startsWith('/')) throw new PatchError(`path ${JSON.stringify(path)} must start with "/"`);
  return path.slice(1).split('/').map(unescapeToken);
}

function child(container: unknown, token: string, path: string, create: boolean): unknown {
  if (Array.isArray(container)) {
    const index = Number(token);
    if (!Number.isInteger(index) || index < 0 || index >= container.length) throw new PatchError(`${path}: index ${token} out of range`);
    return container[index];
  }
  if (!isRecord(container)) throw new PatchError(`${path}: cannot descend into a ${typeof container}`);
  if (container[token] === undefined && create) container[token] = {};
  if (container[token] === undefined) throw new PatchError(`${path}: "${token}" does not exist`);
  return container[token];
}

export type PatchOperation = { op: 'add' | 'replace' | 'remove'; path: string; value?: unknown };

export function applyOperation(document: JsonRecord, operation: PatchOperation): JsonRecord {
  const root = clone(document);
  const tokens = pointerTokens(operation.path);
  const last = tokens.pop();
  if (last === undefined) throw new PatchError('the root cannot be patched');
  let parent: unknown = root;
  for (const token of tokens) parent = child(parent, token, operation.path, operation.op === 'add');
  if (Array.isArray(parent)) {
    const index = last === '-' ? parent.length : Number(last);
    if (!Number.isInteger(index) || index < 0 || index > parent.length) throw new PatchError(`${operation.path}: index ${last} out of range`);
    if (operation.op === 'add') parent.splice(index, 0, clone(operation.value));
    else if (index >= parent.length) throw new PatchError(`${operation.path}: index ${last} out of range`);
    else if (operation.op === 'replace') parent[index] = clone(operation.value);
    else parent.splice(index, 1);
    return root;
  }
  if (!isRecord(parent)) throw new PatchError(`${operation.path}: parent is not an object`);
  if (operation.op !== 'add' && !Object.hasOwn(parent, last)) throw new PatchError(`${operation.path}: "${last}" does not exist`);
  if (operation.op === 'remove') delete parent[last];
  else parent[last] = clone(operation.value);
  return root;
}
