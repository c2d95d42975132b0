/**
 * The two kinds of field in a Machine template (Cluster API's mdutil.MachineTemplateUpToDate and
 * MachineTemplateDeepCopyRolloutFields): those whose change needs new Machines (the Kubernetes
 * version, the bootstrap and infrastructure references, the failure domain) and those Cluster
 * API changes in place, from MachineDeployment to MachineSets to Machines, without a rollout
 * (`minReadySeconds`, `readinessGates`, `taints`, the deletion timeouts; the template's labels
 * and annotations are in place too).
 */

import { clone, deepEqual, isRecord, recordAt } from '../../../shared/contracts/json.js';

/** The fields of a Machine spec whose change is a rollout. */
const ROLLOUT_FIELDS = ['version', 'bootstrap', 'infrastructureRef', 'failureDomain'] as const;

/** The fields of a Machine spec changed in place. */
const IN_PLACE_FIELDS = ['minReadySeconds', 'readinessGates', 'taints'] as const;
const IN_PLACE_DELETION_FIELDS = ['nodeDrainTimeoutSeconds', 'nodeVolumeDetachTimeoutSeconds', 'nodeDeletionTimeoutSeconds'] as const;

type Spec = Record<string, unknown>;

/** An empty failure domain is none, as Go's zero value is. */
function rolloutValue(spec: unknown, field: (typeof ROLLOUT_FIELDS)[number]): unknown {
  const value = isRecord(spec) ? spec[field] : undefined;
  return value === '' ? undefined : value;
}

/** Both Machine specs would make the same Machines: nothing but in-place fields differ. */
export function sameRolloutFields(current: unknown, desired: unknown): boolean {
  return ROLLOUT_FIELDS.every((field) => deepEqual(rolloutValue(current, field) ?? null, rolloutValue(desired, field) ?? null));
}

/** `target` with the in-place fields of `source` (set where `source` sets them, dropped where it does not). */
export function withInPlaceFields(target: Spec, source: unknown): Spec {
  const next: Spec = { ...target };
  for (const field of IN_PLACE_FIELDS) {
    const value = isRecord(source) ? source[field] : undefined;
    if (value === undefined) delete next[field];
    else next[field] = clone(value);
  }
  const deletion: Spec = { ...(recordAt(target, 'deletion') ?? {}) };
  const sourceDeletion = recordAt(source, 'deletion');
  for (const field of IN_PLACE_DELETION_FIELDS) {
    const value = sourceDeletion?.[field];
    if (value === undefined) delete deletion[field];
    else deletion[field] = clone(value);
  }
  if (Object.keys(deletion).length > 0) next.deletion = deletion;
  else delete next.deletion;
  return next;
}

/** `labels` with every entry of `wanted` set over it: entries it does not name stay (capless does not know who set them). */
export function withEntries(labels: Readonly<Record<string, string>> | undefined, wanted: Readonly<Record<string, string>>): Record<string, string> {
  return { ...labels, ...wanted };
}
