/** Machine conditions and annotations of health checking and remediation (C14 v1beta2 API). */

export const CONDITION_HEALTH_CHECK_SUCCEEDED = 'HealthCheckSucceeded';
export const CONDITION_OWNER_REMEDIATED = 'OwnerRemediated';
export const REASON_WAITING_FOR_REMEDIATION = 'WaitingForRemediation';
/** Set instead of OwnerRemediated when the MachineHealthCheck names a remediation template. */
export const CONDITION_EXTERNALLY_REMEDIATED = 'ExternallyRemediated';
/** A Machine with this annotation is unhealthy whatever its Node says (manual remediation). */
export const ANNOTATION_REMEDIATE_MACHINE = 'cluster.x-k8s.io/remediate-machine';
/** A Machine with this annotation (or the paused one) is no target of any MachineHealthCheck: not checked, not counted, not remediated. */
export const ANNOTATION_SKIP_REMEDIATION = 'cluster.x-k8s.io/skip-remediation';
