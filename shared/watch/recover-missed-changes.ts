/**
 * What a restart owes the change log (ADR 0081): changes the store made after the journal's last
 * line — a process stopped between a write and its journal append. Found by comparing the store
 * with the journal: an object whose resourceVersion is newer than the log's head changed unseen
 * (ADDED when the history does not name it, else MODIFIED); an object the history last saw alive
 * that the store no longer holds was removed unseen (DELETED). Run before anything writes.
 */

import { type GroupKind, groupOf, type StoredObject } from '../contracts/object.js';
import type { ObjectChange, ObjectStore } from '../ports/object-store.js';
import { type ChangeLog, identity } from './change-log.js';

export async function recoverMissedChanges(log: ChangeLog, store: Pick<ObjectStore, 'list'>, kinds: readonly GroupKind[]): Promise<number> {
  const head = BigInt(log.head());
  const known = log.lastKnown();
  const present = new Set<string>();
  const missed: ObjectChange[] = [];
  for (const kind of kinds) {
    for (const object of await listAll(store, kind)) {
      const id = identity(object);
      present.add(id);
      if (BigInt(object.metadata.resourceVersion) <= head) continue;
      const last = known.get(id);
      missed.push(last && last.type !== 'DELETED' ? { type: 'MODIFY', oldObject: last.object, newObject: object } : { type: 'INSERT', newObject: object });
    }
  }
  missed.sort((a, b) => compareVersions(a.newObject, b.newObject));
  const listed = new Set(kinds.map((kind) => `${kind.group}/${kind.kind}`));
  for (const [id, last] of known) {
    const group = groupOf(last.object.apiVersion);
    if (last.type === 'DELETED' || present.has(id) || !listed.has(`${group}/${last.object.kind}`)) continue;
    missed.push({ type: 'REMOVE', oldObject: last.object });
  }
  log.appendMissed(missed);
  return missed.length;
}

async function listAll(store: Pick<ObjectStore, 'list'>, kind: GroupKind): Promise<StoredObject[]> {
  const items: StoredObject[] = [];
  let token: string | undefined;
  do {
    const page = await store.list({ ...kind, limit: 500, ...(token ? { continue: token } : {}) });
    items.push(...page.items);
    token = page.continue;
  } while (token);
  return items;
}

function compareVersions(a: StoredObject | undefined, b: StoredObject | undefined): number {
  const left = BigInt(a?.metadata.resourceVersion ?? '0');
  const right = BigInt(b?.metadata.resourceVersion ?? '0');
  return left < right ? -1 : left > right ? 1 : 0;
}
