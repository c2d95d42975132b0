/**
 * Cluster API's `reconcileDiscovery`, pure: fills `joinConfiguration.discovery.bootstrapToken`
 * (CA hashes, API server endpoint, token) and returns the spec to write back to the KubeadmConfig.
 */
import { TransientError } from '../errors/index.js';
import { caCertHashes } from '../pki/ca-cert-hash.js';
import { controlPlaneEndpointAddress } from './control-plane-endpoint.js';
import type { JoinConfigurationSpec, KubeadmClusterInput } from './types.js';

export interface JoinDiscoveryInput {
  joinConfiguration: JoinConfigurationSpec | undefined;
  cluster: KubeadmClusterInput;
  /** `tls.crt` of `<cluster>-ca`; when absent and no hashes are set, CA verification is skipped. */
  caCertPem?: string;
  /** A freshly generated token (`generateBootstrapToken()`), used only when none is set yet. */
  newToken: string;
}

export interface JoinDiscoveryResult {
  joinConfiguration: JoinConfigurationSpec;
  /** True when the spec changed and must be written back. */
  changed: boolean;
  /** True when the new token was used: the caller must create its Secret in the workload cluster. */
  tokenCreated: boolean;
}

/** Requeue delay Cluster API uses while the Cluster endpoint is not set. */
export const ENDPOINT_REQUEUE_SECONDS = 10;

/**
 * @throws TransientError while the Cluster has no control-plane endpoint (requeue after 10 s).
 */
export function fillJoinDiscovery(input: JoinDiscoveryInput): JoinDiscoveryResult {
  const join = structuredClone(input.joinConfiguration ?? {});
  if (join.discovery?.file) return { joinConfiguration: join, changed: false, tokenCreated: false };

  const token = { ...join.discovery?.bootstrapToken };
  let changed = false;
  let tokenCreated = false;
  if (!token.caCertHashes || token.caCertHashes.length === 0) {
    if (input.caCertPem) {
      token.caCertHashes = caCertHashes(input.caCertPem);
      changed = true;
    } else if (!token.unsafeSkipCAVerification) {
      token.unsafeSkipCAVerification = true;
      changed = true;
    }
  }
  if (!token.apiServerEndpoint) {
    const endpoint = controlPlaneEndpointAddress(input.cluster);
    if (!endpoint) {
      throw new TransientError(
        `waiting for Cluster ${input.cluster.name} to have a control-plane endpoint (retry in ${ENDPOINT_REQUEUE_SECONDS}s)`,
      );
    }
    token.apiServerEndpoint = endpoint;
    changed = true;
  }
  if (!token.token) {
    token.token = input.newToken;
    changed = true;
    tokenCreated = true;
  }
  join.discovery = { ...join.discovery, bootstrapToken: token };
  return { joinConfiguration: join, changed, tokenCreated };
}
