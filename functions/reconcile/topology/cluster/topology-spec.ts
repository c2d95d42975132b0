/** `Cluster.spec.topology` as the topology reconciler reads it (parsed; admission already checked it). */

import { isRecord, type JsonRecord, } from '../../../../shared/contracts/json.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import { clusterTopologySchema } from '../../../../shared/contracts/schemas/core/cluster.js';
import type { z } from 'zod';

export type ClusterTopology = z.infer<typeof clusterTopologySchema>;
export type TopologyMachineDeployment = NonNullable<NonNullable<ClusterTopology['workers']>['machineDeployments']>[number];

export function readTopology(cluster: StoredObject): ClusterTopology | undefined {
  const parsed = clusterTopologySchema.safeParse(cluster.spec?.topology);
  return parsed.success ? parsed.data : undefined;
}

/** `variables.overrides` of a control plane or MachineDeployment topology, as a name → value map. */
export function overridesOf(holder: unknown): JsonRecord {
  const overrides = isRecord(holder) && isRecord(holder.variables) ? holder.variables.overrides : undefined;
  if (!Array.isArray(overrides)) return {};
  return Object.fromEntries(overrides.flatMap((o: unknown) => (isRecord(o) && typeof o.name === 'string' ? [[o.name, o.value]] : [])));
}
