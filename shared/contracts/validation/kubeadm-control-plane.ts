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

/** secret.DefaultCACertificatesExpiryDays: the CA capless (and Cluster API) generates lasts ten years. */
const DEFAULT_CA_CERTIFICATE_VALIDITY_DAYS = 3650;

/** Certificates no longer than their CA, and a rollout before they expire that leaves them time to. */
function validateCertificateValidity(kcp: KubeadmControlPlane): FieldError[] {
  const configuration = kcp.spec.kubeadmConfigSpec?.clusterConfiguration;
  const days = configuration?.certificateValidityPeriodDays;
  if (!days) return [];
  const errors: FieldError[] = [];
  const path = 'spec.kubeadmConfigSpec.clusterConfiguration.certificateValidityPeriodDays';
  const caDays = configuration.caCertificateValidityPeriodDays;
  if (caDays && days > caDays) errors.push(invalid(path, days, `must be less than or equal to caCertificateValidityPeriodDays (${caDays})`));
  if (!caDays && days > DEFAULT_CA_CERTIFICATE_VALIDITY_DAYS) {
    errors.push(invalid(path, days, `must be less than or equal to the default value of caCertificateValidityPeriodDays (${DEFAULT_CA_CERTIFICATE_VALIDITY_DAYS})`));
  }
  const before = kcp.spec.rollout?.before?.certificatesExpiryDays;
  if (before && before >= days) errors.push(invalid('spec.rollout.before.certificatesExpiryDays', before, `must be less than certificateValidityPeriodDays (${days})`));
  return errors;
}

export function validateKubeadmControlPlane(kcp: KubeadmControlPlane, ctx: ValidationContext): FieldError[] {
  return [
    ...validateReplicas(kcp),
    ...validateMaxSurge(kcp),
    ...validateCertificateValidity(kcp),
    ...validateVersion(kcp.spec.version, 'spec.version'),
    ...validateServedReference(kcp.spec.machineTemplate.spec.infrastructureRef, 'spec.machineTemplate.spec.infrastructureRef', ctx),
  ];
}
