/** Is the Cluster ready for bootstrap: infrastructure provisioned and endpoint set (pure). */

import { booleanAt, numberAt, stringAt } from '../../../../shared/contracts/json.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';

export interface Endpoint {
  host: string;
  port: number;
}

export type ClusterReadiness =
  | { ready: true; endpoint: Endpoint }
  | { ready: false; reason: 'WaitingForInfrastructure' | 'WaitingForControlPlaneEndpoint'; message: string };

/** The Cluster is usable for bootstrap once its infrastructure is provisioned and the endpoint is set. */
export function clusterReadiness(cluster: KubeObject): ClusterReadiness {
  if (booleanAt(cluster, 'status', 'initialization', 'infrastructureProvisioned') !== true) {
    return { ready: false, reason: 'WaitingForInfrastructure', message: 'cluster infrastructure is not provisioned yet' };
  }
  const host = stringAt(cluster, 'spec', 'controlPlaneEndpoint', 'host');
  const port = numberAt(cluster, 'spec', 'controlPlaneEndpoint', 'port');
  if (!host || !port) {
    return { ready: false, reason: 'WaitingForControlPlaneEndpoint', message: 'cluster spec.controlPlaneEndpoint is not set yet' };
  }
  return { ready: true, endpoint: { host, port } };
}
