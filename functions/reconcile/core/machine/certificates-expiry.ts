/**
 * When a control-plane Machine's certificates expire (Cluster API's reconcileCertificateExpiry):
 * the `machine.cluster.x-k8s.io/certificates-expiry` annotation of the Machine (set by hand, it
 * wins), else of its bootstrap config (where the KubeadmControlPlane records what it read from the
 * Node's kube-apiserver), into `status.certificatesExpiryDate`; neither: none. Other Machines
 * have none. A value that is not an RFC 3339 time is not taken (Cluster API fails the reconcile
 * on it; capless keeps what it had and says why in its log).
 */
import { ANNOTATION_CERTIFICATES_EXPIRY, LABEL_CONTROL_PLANE, type StoredObject } from '../../../../shared/contracts/object.js';
import type { PhaseResult } from '../../engine/skeleton/types.js';
import type { MachineScope } from './scope.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

export type CertificatesExpiry = { date?: string } | { invalid: string; source: string };

/** The expiry a control-plane Machine reports, from its annotation or its bootstrap config's. */
export function certificatesExpiryOf(machine: StoredObject, bootstrapConfig: StoredObject | undefined): CertificatesExpiry {
  if (machine.metadata.labels?.[LABEL_CONTROL_PLANE] === undefined) return {};
  const own = machine.metadata.annotations?.[ANNOTATION_CERTIFICATES_EXPIRY];
  const fromConfig = bootstrapConfig?.metadata.annotations?.[ANNOTATION_CERTIFICATES_EXPIRY];
  const [value, source] = own !== undefined ? [own, `Machine ${machine.metadata.name}`] : [fromConfig, `${bootstrapConfig?.kind ?? ''} ${bootstrapConfig?.metadata.name ?? ''}`];
  if (value === undefined) return {};
  if (!RFC3339.test(value) || Number.isNaN(Date.parse(value))) return { invalid: value, source };
  // metav1.Time's form: whole seconds, UTC.
  return { date: `${new Date(value).toISOString().slice(0, 19)}Z` };
}

/** The Machine phase: records the expiry (or its absence) for the status. */
export function certificatesExpiryPhase(s: MachineScope): PhaseResult {
  const expiry = certificatesExpiryOf(s.object, s.bootstrapConfig);
  if ('invalid' in expiry) {
    s.ctx.logger.warn(`failed to reconcile certificates expiry: ${expiry.source} has ${ANNOTATION_CERTIFICATES_EXPIRY}=${JSON.stringify(expiry.invalid)}, not an RFC 3339 time`);
    return {};
  }
  if (expiry.date) s.certificatesExpiryDate = expiry.date;
  else delete s.certificatesExpiryDate;
  return {};
}
