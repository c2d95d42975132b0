import type { GroupKind, StoredObject } from '../../../../shared/contracts/object.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';

const CORE = 'cluster.x-k8s.io';
export const MACHINE: GroupKind = { group: CORE, kind: 'Machine' };
export const MACHINE_SET: GroupKind = { group: CORE, kind: 'MachineSet' };
export const MACHINE_DEPLOYMENT: GroupKind = { group: CORE, kind: 'MachineDeployment' };

/**
 * The cluster's objects of the given kinds, in one narrowed index read (kinds of one group share a
 * query where the store can). Reading the whole cluster would also parse (and, on DynamoDB, pay
 * read units for) its Secrets: certificates and bootstrap data are most of a cluster's bytes.
 */
export function listClusterMembers(
  store: Pick<ObjectStore, 'listByCluster'>,
  namespace: string,
  clusterName: string,
  kinds: readonly GroupKind[],
): Promise<StoredObject[]> {
  return kinds.length === 0 ? Promise.resolve([]) : store.listByCluster(namespace, clusterName, kinds);
}
