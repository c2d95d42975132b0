/**
 * The control-plane init lock (kubeadm-bootstrap.md §5): a ConfigMap `<cluster>-lock` whose
 * conditional create is the lock. Only its holder may render `kubeadm init`.
 */

import { stringAt } from '../../../../shared/contracts/json.js';
import {
  LABEL_CLUSTER_NAME,
  type ObjectKey,
  type StoredObject,
  ownerReferenceTo,
} from '../../../../shared/contracts/object.js';
import { isAlreadyExists, isConflict, isNotFound } from '../../../../shared/errors/index.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';
import { CORE_GROUP, initLockName } from '../common/well-known.js';

export const LOCK_INFORMATION_KEY = 'lock-information';

export type LockOutcome =
  | { acquired: true }
  | { acquired: false; reason: 'HeldByOther'; holder: string }
  | { acquired: false; reason: 'HolderGone'; holder: string }
  | { acquired: false; reason: 'Vanished' };

function lockKey(cluster: StoredObject): ObjectKey {
  return { group: '', kind: 'ConfigMap', namespace: cluster.metadata.namespace, name: initLockName(cluster.metadata.name) };
}

export function lockConfigMap(cluster: StoredObject, machineName: string) {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: initLockName(cluster.metadata.name),
      namespace: cluster.metadata.namespace,
      labels: { [LABEL_CLUSTER_NAME]: cluster.metadata.name },
      ownerReferences: [ownerReferenceTo(cluster, false)],
    },
    data: { [LOCK_INFORMATION_KEY]: JSON.stringify({ machineName }) },
  };
}

/** The holder named by a lock ConfigMap, or undefined when its information is unreadable. */
export function lockHolder(lock: StoredObject): string | undefined {
  const raw = lock.data?.[LOCK_INFORMATION_KEY];
  if (typeof raw !== 'string') return undefined;
  try {
    return stringAt(JSON.parse(raw), 'machineName');
  } catch {
    return undefined;
  }
}

/**
 * Tries to take the lock for `machineName`. Re-entrant for the holder. When the holder
 * Machine is gone the stale lock is deleted and the caller is told to try again later.
 */
export async function acquireInitLock(
  store: ObjectStore,
  cluster: StoredObject,
  machineName: string,
): Promise<LockOutcome> {
  try {
    await store.create(lockConfigMap(cluster, machineName));
    return { acquired: true };
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
  const lock = await store.get(lockKey(cluster));
  if (!lock) return { acquired: false, reason: 'Vanished' };
  const holder = lockHolder(lock) ?? '';
  if (holder === machineName) return { acquired: true };
  const holderMachine = holder
    ? await store.get({ group: CORE_GROUP, kind: 'Machine', namespace: cluster.metadata.namespace, name: holder })
    : undefined;
  if (holderMachine) return { acquired: false, reason: 'HeldByOther', holder };
  await releaseInitLock(store, cluster, lock.metadata.resourceVersion);
  return { acquired: false, reason: 'HolderGone', holder };
}

/** Deletes the lock; NotFound (or a newer lock, when a version is given) counts as released. */
export async function releaseInitLock(store: ObjectStore, cluster: StoredObject, resourceVersion?: string): Promise<void> {
  try {
    await store.delete(lockKey(cluster), resourceVersion ? { resourceVersion } : {});
  } catch (error) {
    if (isNotFound(error)) return;
    if (resourceVersion && isConflict(error)) return;
    throw error;
  }
}
