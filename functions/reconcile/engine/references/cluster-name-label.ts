import { stringAt } from '../../../../shared/contracts/json.js';
import { LABEL_CLUSTER_NAME, type StoredObject } from '../../../../shared/contracts/object.js';
import type { PhaseResult, Scope } from '../skeleton/types.js';

/** `spec.clusterName` of a Machine, MachineSet or MachineDeployment ('' when unset). */
export function clusterNameOf(object: StoredObject): string {
  return stringAt(object, 'spec', 'clusterName') ?? '';
}

/** A phase: the object carries the cluster-name label of its `spec.clusterName` (one write, only when missing). */
export async function ensureClusterNameLabel(s: Scope): Promise<PhaseResult> {
  const clusterName = clusterNameOf(s.object);
  if (s.object.metadata.labels?.[LABEL_CLUSTER_NAME] === clusterName) return {};
  s.object = await s.ctx.store.update({
    ...s.object,
    metadata: { ...s.object.metadata, labels: { ...s.object.metadata.labels, [LABEL_CLUSTER_NAME]: clusterName } },
  });
  return {};
}
