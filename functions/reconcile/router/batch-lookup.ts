import { type GroupKind, keyString, type ObjectKey, type StoredObject } from '../../../shared/contracts/object.js';
import type { ListQuery, ListResult } from '../../../shared/ports/object-store.js';
import type { ReferrerLookup } from './route-change.js';

/**
 * The router's lookups shared by the changes of one DynamoDB Streams batch (on AWS only: `capless
 * up` routes each change as it is made, ADR 0139): a Machine's five status writes in a row ask
 * for the same cluster's health checks five times, and a cluster's parts applied together look
 * for the same Cluster. The same query in one batch is answered once.
 *
 * Safe because the router finds watchers, and a watcher a shared answer misses reads the change
 * anyway: an object created after the answer is routed by its own INSERT, later in this batch or
 * in the next, and that reconcile reads the store after every change of this batch was written. A
 * watcher removed after the answer is woken once more and finds itself gone. Answers are shared,
 * never mutated (routeChange only filters and maps them); a failed lookup is forgotten, so the
 * record's retry asks again.
 */
export function batchLookup(lookup: ReferrerLookup): ReferrerLookup {
  const gets = new Map<string, Promise<StoredObject | undefined>>();
  const members = new Map<string, Promise<StoredObject[]>>();
  const lists = new Map<string, Promise<ListResult>>();
  return {
    get: (key: ObjectKey) => once(gets, keyString(key), () => lookup.get(key)),
    listByCluster: (namespace: string, clusterName: string, kind?: GroupKind) =>
      once(members, `${namespace}/${clusterName} ${kind ? `${kind.group}/${kind.kind}` : '*'}`, () => lookup.listByCluster(namespace, clusterName, kind)),
    list: (query: ListQuery) => once(lists, JSON.stringify(query), () => lookup.list(query)),
  };
}

function once<T>(answers: Map<string, Promise<T>>, key: string, ask: () => Promise<T>): Promise<T> {
  const known = answers.get(key);
  if (known) return known;
  const asked = ask();
  answers.set(key, asked);
  asked.catch(() => answers.delete(key));
  return asked;
}
