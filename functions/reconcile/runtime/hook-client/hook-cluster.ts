/** The Cluster as a lifecycle request carries it: v1beta2, without managedFields and status. */

import type { KubeObject } from '../../../../shared/contracts/object.js';
import { clone } from '../../../../shared/contracts/json.js';

export const CLUSTER_API_VERSION = 'cluster.x-k8s.io/v1beta2';

export function hookCluster(cluster: KubeObject): Record<string, unknown> {
  const metadata = Object.fromEntries(Object.entries(clone(cluster.metadata)).filter(([key]) => key !== 'managedFields'));
  return {
    apiVersion: CLUSTER_API_VERSION,
    kind: 'Cluster',
    metadata,
    ...(cluster.spec ? { spec: clone(cluster.spec) } : {}),
  };
}
