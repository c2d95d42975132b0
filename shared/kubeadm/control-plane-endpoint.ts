/** The Cluster's control-plane endpoint as kubeadm wants it (Go `net.JoinHostPort`). */
import type { KubeadmClusterInput } from './types.js';

export function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** True when the Cluster has a usable endpoint (host set, port 1–65535). */
export function hasControlPlaneEndpoint(cluster: KubeadmClusterInput): boolean {
  const endpoint = cluster.controlPlaneEndpoint;
  return endpoint !== undefined && endpoint.host !== '' && endpoint.port > 0 && endpoint.port <= 65535;
}

/** `host:port` of the Cluster endpoint, or undefined when it is not set yet. */
export function controlPlaneEndpointAddress(cluster: KubeadmClusterInput): string | undefined {
  const endpoint = cluster.controlPlaneEndpoint;
  if (!endpoint || !hasControlPlaneEndpoint(cluster)) return undefined;
  return joinHostPort(endpoint.host, endpoint.port);
}
