/**
 * JoinConfiguration for a control-plane join or a worker (Cluster API `joinControlplane` /
 * `joinWorker`): workers get the `node.cluster.x-k8s.io/uninitialized:NoSchedule` taint (not
 * persisted), control-plane joins get at least `controlPlane: {localAPIEndpoint: {}}`.
 */
import { TerminalError } from '../../errors/index.js';
import { type KubeadmApiVersion, KUBEADM_V1BETA4 } from '../api-version.js';
import type { JoinConfigurationSpec, Taint } from '../types.js';
import { apiEndpoint, durationOf, type KubeadmObject, nodeRegistration, nonEmpty, timeouts } from './fields.js';

export type JoinRole = 'controlPlane' | 'worker';

export const UNINITIALIZED_TAINT: Taint = { key: 'node.cluster.x-k8s.io/uninitialized', effect: 'NoSchedule' };

function withUninitializedTaint(taints: Taint[] | undefined): Taint[] {
  const list = taints ?? [];
  const present = list.some((t) => t.key === UNINITIALIZED_TAINT.key && t.effect === UNINITIALIZED_TAINT.effect);
  return present ? list : [...list, UNINITIALIZED_TAINT];
}

function discovery(spec: JoinConfigurationSpec, apiVersion: KubeadmApiVersion): KubeadmObject {
  const token = spec.discovery?.bootstrapToken;
  const file = spec.discovery?.file;
  return {
    bootstrapToken: token
      ? {
          apiServerEndpoint: token.apiServerEndpoint || undefined,
          caCertHashes: nonEmpty(token.caCertHashes),
          token: token.token ?? '',
          unsafeSkipCAVerification: token.unsafeSkipCAVerification || undefined,
        }
      : undefined,
    file: file ? { kubeConfigPath: file.kubeConfigPath } : undefined,
    tlsBootstrapToken: spec.discovery?.tlsBootstrapToken || undefined,
    timeout: apiVersion === KUBEADM_V1BETA4 ? undefined : durationOf(spec.timeouts?.tlsBootstrapSeconds),
  };
}

export function buildJoinConfiguration(
  spec: JoinConfigurationSpec | undefined,
  role: JoinRole,
  apiVersion: KubeadmApiVersion,
): KubeadmObject {
  const join = spec ?? {};
  if (role === 'worker' && join.controlPlane !== undefined) {
    throw new TerminalError(
      'InvalidJoinConfiguration',
      'joinConfiguration.controlPlane is set on a worker; it is only allowed for control-plane machines',
    );
  }
  const registration =
    role === 'worker'
      ? { ...join.nodeRegistration, taints: withUninitializedTaint(join.nodeRegistration?.taints) }
      : join.nodeRegistration;
  return {
    apiVersion,
    kind: 'JoinConfiguration',
    caCertPath: join.caCertPath || undefined,
    controlPlane: role === 'controlPlane' ? { localAPIEndpoint: apiEndpoint(join.controlPlane?.localAPIEndpoint) } : undefined,
    discovery: discovery(join, apiVersion),
    nodeRegistration: nodeRegistration(registration, apiVersion),
    patches: join.patches?.directory ? { directory: join.patches.directory } : undefined,
    skipPhases: nonEmpty(join.skipPhases),
    timeouts: apiVersion === KUBEADM_V1BETA4 ? timeouts(join.timeouts) : undefined,
  };
}
