/**
 * KCP deletion: wait for the cluster's worker machines to go, then delete the control-plane
 * machines. Both waits are event-driven: a worker Machine's removal wakes the KCP through its
 * `clusterLabel` watch narrowed to `REMOVE`, an owned Machine's through its owner watch; the
 * requeue is only the safety net.
 */

import { type StoredObject, controllerOf, isDeleting, keyOf } from '../../../../shared/contracts/object.js';
import { isNotFound } from '../../../../shared/errors/index.js';
import { LABEL_CONTROL_PLANE } from '../common/well-known.js';
import { MACHINE } from '../../engine/references/cluster-members.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import { WAIT_SAFETY_NET_SECONDS } from '../../engine/work/wait-safety-net.js';
import { clusterNameOf } from './phases.js';
import { withoutKcpHook } from './pre-terminate-hook.js';
import type { KcpScope } from './scope.js';
import { CONDITIONS } from './status.js';

function isWorkerMachine(obj: StoredObject): boolean {
  return obj.kind === 'Machine' && obj.metadata.labels?.[LABEL_CONTROL_PLANE] === undefined;
}

export async function deleteControlPlane(scope: KcpScope): Promise<PhaseResult | undefined> {
  const { store } = scope.ctx;
  const kcp = scope.object;
  const clusterName = clusterNameOf(kcp);
  // Machines only: the whole cluster would also read its Secrets, most of its bytes.
  const objects = clusterName
    ? await store.listByCluster(kcp.metadata.namespace, clusterName, MACHINE)
    : await store.listByOwner(kcp.metadata.uid);
  const workers = objects.filter(isWorkerMachine);
  if (workers.length > 0) {
    scope.conditions.push({
      type: CONDITIONS.deleting,
      status: 'True',
      reason: 'WaitingForWorkers',
      message: `waiting for ${workers.length} worker machine(s) to be deleted`,
    });
    return { requeueAfterSeconds: WAIT_SAFETY_NET_SECONDS };
  }
  const machines = objects.filter((o) => o.kind === 'Machine' && controllerOf(o)?.uid === kcp.metadata.uid);
  scope.facts = [];
  for (const machine of machines) {
    try {
      // The whole etcd goes: no member is removed, the hook comes off first (Cluster API's reconcileDelete).
      const unhooked = withoutKcpHook(machine);
      const current = unhooked ? await store.update(unhooked) : machine;
      if (!isDeleting(current)) await store.delete(keyOf(current));
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  if (machines.length > 0) {
    scope.conditions.push({
      type: CONDITIONS.deleting,
      status: 'True',
      reason: 'DeletingMachines',
      message: `waiting for ${machines.length} control plane machine(s) to be deleted`,
    });
    return { requeueAfterSeconds: WAIT_SAFETY_NET_SECONDS };
  }
  scope.conditions.push({ type: CONDITIONS.deleting, status: 'True', reason: 'Deleted' });
  return undefined;
}
