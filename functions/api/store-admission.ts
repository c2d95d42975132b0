/**
 * Admission that needs to read other objects (Cluster API's webhooks that use a client): after a
 * body passed its kind's own admission, a Cluster with `spec.topology` is checked against its
 * ClusterClass. Status writes skip it, as they skip webhooks on spec.
 */

import type { KubeObject, StoredObject } from '../../shared/contracts/object.js';
import { CLUSTER_GROUP } from '../../shared/contracts/schemas/groups.js';
import { admitClusterTopology } from '../../shared/contracts/topology/cluster-topology-admission.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';

export async function admitAgainstStore(object: KubeObject, old: StoredObject | undefined, store: ObjectStore): Promise<KubeObject> {
  if (object.kind !== 'Cluster' || !object.apiVersion.startsWith(`${CLUSTER_GROUP}/`)) return object;
  return admitClusterTopology(object, old, (namespace, name) => store.get({ group: CLUSTER_GROUP, kind: 'ClusterClass', namespace, name }));
}
