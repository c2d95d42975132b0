/** KubeadmControlPlane validation (C14 `controlplane/kubeadm/webhooks/admission/kubeadmcontrolplane.go`). */

import type { KubeadmControlPlane } from '../schemas/controlplane/kubeadm-control-plane.js';
import type { ValidationContext } from './context.js';
import { validateVersion } from './core.js';
import { type FieldError, invalid } from './field-error.js';
import { validateServedReference } from './references.js';

function usesExternalEtcd(kcp: KubeadmControlPlane): boolean {
  return kcp.spec.kubeadmConfigSpec?.clusterConfiguration?.etcd?.external !== undefined;
}

function validateReplicas(kcp: KubeadmControlPlane): FieldError[] {
  const replicas = kcp.spec.replicas;
  if (replicas === undefined) return [];
  if (replicas <= 0) return [invalid('spec.replicas', replicas, 'replicas must be greater than 0')];
  if (replicas % 2 === 0 && !usesExternalEtcd(kcp)) {
    return [invalid('spec.replicas', replicas, 'cannot be an even number when etcd is stacked')];
  }
  return [];
}

function validateMaxSurge(kcp: KubeadmControlPlane): FieldError[] {
  const maxSurge = kcp.spec.rollout?.strategy?.rollingUpdate?.maxSurge;
  if (maxSurge === undefined || maxSurge === 0 || maxSurge === 1) return [];
  return [invalid('spec.rollout.strategy.rollingUpdate.maxSurge', maxSurge, 'value must be 1 or 0')];
}

export function validateKubeadmControlPlane(kcp: KubeadmControlPlane, ctx: ValidationContext): FieldError[] {
  return [
    ...validateReplicas(kcp),
    ...validateMaxSurge(kcp),
    ...validateVersion(kcp.spec.version, 'spec.version'),
    ...validateServedReference(kcp.spec.machineTemplate.spec.infrastructureRef, 'spec.machineTemplate.spec.infrastructureRef', ctx),
  ];
}
