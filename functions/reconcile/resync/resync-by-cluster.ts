import { keyOf, LABEL_CLUSTER_NAME, type ObjectKey } from '../../../shared/contracts/object.js';
import { RESYNC_KEYS_PER_MESSAGE, type ResyncMessage } from '../../../shared/contracts/work-dispatch.js';
import type { ObjectStore } from '../../../shared/ports/object-store.js';
import type { ReconcilerRegistry } from '../engine/registry.js';
import { RESYNC_PAGE_SIZE } from './resync-all.js';

/** Where the resync messages go: the shared work queue, in as few requests as it allows. */
export type SendResyncMessages = (messages: readonly ResyncMessage[]) => Promise<void>;

const CLUSTER_GROUP = 'cluster.x-k8s.io';

/** `<namespace>/<cluster>` of an object of a cluster (a Cluster is its own), else its namespace. */
function scopeOf(key: ObjectKey, clusterLabel: string | undefined): string {
  const cluster = clusterLabel ?? (key.group === CLUSTER_GROUP && key.kind === 'Cluster' ? key.name : undefined);
  return cluster ? `${key.namespace}/${cluster}` : key.namespace;
}

function messagesOf(scope: string, keys: ObjectKey[]): ResyncMessage[] {
  const messages: ResyncMessage[] = [];
  for (let i = 0; i < keys.length; i += RESYNC_KEYS_PER_MESSAGE) messages.push({ v: 1, resync: { scope, keys: keys.slice(i, i + RESYNC_KEYS_PER_MESSAGE) } });
  return messages;
}

/**
 * The periodic resync on the shared work queue (docs/adr/0110): every object of every registered
 * kind, grouped by cluster (the `cluster.x-k8s.io/cluster-name` label; objects of no cluster by
 * namespace), one message per cluster with the keys of all its kinds (split past
 * RESYNC_KEYS_PER_MESSAGE). The dispatcher fans each out per kind, and each reconcile takes its
 * work record directly: no enqueue write per object. Returns how many objects and messages.
 */
export async function resyncByCluster(
  store: Pick<ObjectStore, 'list'>,
  registry: ReconcilerRegistry,
  send: SendResyncMessages,
): Promise<{ objects: number; messages: number }> {
  const byScope = new Map<string, ObjectKey[]>();
  let objects = 0;
  for (const { kind } of registry.all()) {
    let token: string | undefined;
    do {
      const page = await store.list({ ...kind, limit: RESYNC_PAGE_SIZE, ...(token ? { continue: token } : {}) });
      for (const item of page.items) {
        const key = keyOf(item);
        const scope = scopeOf(key, item.metadata.labels?.[LABEL_CLUSTER_NAME]);
        const keys = byScope.get(scope);
        if (keys) keys.push(key);
        else byScope.set(scope, [key]);
        objects += 1;
      }
      token = page.continue;
    } while (token);
  }
  const messages = [...byScope].flatMap(([scope, keys]) => messagesOf(scope, keys));
  if (messages.length > 0) await send(messages);
  return { objects, messages: messages.length };
}
