/**
 * A Pod as a workload cluster's API returns it (plain JSON) → what a drain needs of it
 * (WorkloadPod), read defensively: a Pod without a name is no Pod.
 */
import { isRecord, recordAt, stringAt, stringEntriesOf } from '../contracts/json.js';
import type { WorkloadPod } from '../ports/workload-cluster.js';

export function workloadPodOf(value: unknown): WorkloadPod | undefined {
  const name = stringAt(value, 'metadata', 'name');
  if (!name) return undefined;
  const metadata = recordAt(value, 'metadata');
  const owners = Array.isArray(metadata?.ownerReferences) ? metadata.ownerReferences : [];
  const controller = owners.find((owner) => isRecord(owner) && owner.controller === true && typeof owner.kind === 'string' && typeof owner.name === 'string');
  const volumes = recordAt(value, 'spec')?.volumes;
  const phase = stringAt(value, 'status', 'phase');
  const deletionTimestamp = stringAt(value, 'metadata', 'deletionTimestamp');
  return {
    namespace: stringAt(value, 'metadata', 'namespace') ?? 'default',
    name,
    labels: stringEntriesOf(metadata?.labels),
    annotations: stringEntriesOf(metadata?.annotations),
    ...(isRecord(controller) ? { controller: { kind: String(controller.kind), name: String(controller.name) } } : {}),
    ...(phase ? { phase } : {}),
    ...(deletionTimestamp ? { deletionTimestamp } : {}),
    localStorage: Array.isArray(volumes) && volumes.some((volume) => isRecord(volume) && volume.emptyDir !== undefined),
    persistentVolumeClaims: (Array.isArray(volumes) ? volumes : []).flatMap((volume) => stringAt(volume, 'persistentVolumeClaim', 'claimName') ?? []),
  };
}
