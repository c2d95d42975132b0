import type { GroupKind, StoredObject } from '../../../../shared/contracts/object.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';

const CORE = 'cluster.x-k8s.io';
export const MACHINE: GroupKind = { group: CORE, kind: 'Machine' };
export const MACHINE_SET: GroupKind = { group: CORE, kind: 'MachineSet' };
export const MACHINE_DEPLOYMENT: GroupKind = { group: CORE, kind: 'MachineDeployment' };

/**
 * The cluster's objects of the given kinds, one narrow index read per kind. Reading the whole
 * cluster would also parse (and, on DynamoDB, pay read units for) its Secrets: certificates and
 * bootstrap data are most of a cluster's bytes.
 */
export async function listClusterMembers(
  store: Pick<ObjectStore, 'listByCluster'>,
  namespace: string,
  clusterName: string,
  kinds: readonly GroupKind[],
): Promise<StoredObject[]> {
  const distinct = [...new Map(kinds.map((k) => [`${k.group}/${k.kind}`, k])).values()];
  const lists = await Promise.all(distinct.map((kind) => store.listByCluster(namespace, clusterName, kind)));
  return lists.flat();
}
