/** Ordering and paging of list results where the store does it in process (the memory store). */

import { stringAt } from '../contracts/json.js';
import type { StoredObject } from '../contracts/object.js';
import { BadRequestError } from '../errors/index.js';
import type { ListResult } from '../ports/object-store.js';
import { decodeContinueToken, encodeContinueToken } from './continue-token.js';

/** Lists are ordered by namespace, then name (the DynamoDB sort-key order). */
export function compareByNamespaceAndName(a: StoredObject, b: StoredObject): number {
  const byNamespace = compareStrings(a.metadata.namespace, b.metadata.namespace);
  return byNamespace !== 0 ? byNamespace : compareStrings(a.metadata.name, b.metadata.name);
}

/** One page of `sorted` (already filtered and ordered) after the position a continue token names. */
export function pageOf(sorted: readonly StoredObject[], limit: number | undefined, token: string | undefined): ListResult {
  const start = token === undefined ? 0 : firstAfter(sorted, token);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
    throw new BadRequestError(`limit must be a non-negative integer, got ${limit}`);
  }
  const end = limit === undefined || limit === 0 ? sorted.length : Math.min(sorted.length, start + limit);
  const items = sorted.slice(start, end);
  const last = items.at(-1);
  if (end >= sorted.length || !last) return { items };
  return { items, continue: encodeContinueToken({ namespace: last.metadata.namespace, name: last.metadata.name }) };
}

function firstAfter(sorted: readonly StoredObject[], token: string): number {
  const position = decodeContinueToken(token);
  const namespace = stringAt(position, 'namespace');
  const name = stringAt(position, 'name');
  // Positions this store issues are object keys: a namespace of at most 63 and a name of at most 253 characters.
  if (namespace === undefined || name === undefined || namespace.length > 63 || name.length > 253) throw new BadRequestError('invalid continue token');
  const index = sorted.findIndex(
    (obj) => compareStrings(obj.metadata.namespace, namespace) > 0 || (obj.metadata.namespace === namespace && compareStrings(obj.metadata.name, name) > 0),
  );
  return index === -1 ? sorted.length : index;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
