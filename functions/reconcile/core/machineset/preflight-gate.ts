/**
 * Running the preflight checks (preflight-checks.ts) for a MachineSet about to create or
 * remediate Machines: the skip annotation from the MachineSet or else its bootstrap config
 * template, and the cluster's control plane read with its contract version, only when some check
 * is not skipped. A control plane that cannot be read fails the checks, as in Cluster API.
 */

import { ANNOTATION_SKIP_PREFLIGHT_CHECKS, type StoredObject } from '../../../../shared/contracts/object.js';
import { clusterNameOf } from '../../engine/references/cluster-name-label.js';
import { providerLookupOf } from '../../engine/providers/provider-lookup-port.js';
import { readReference, referenceKey } from '../../engine/references/object-reference.js';
import { resolveReference } from '../../engine/references/resolve-reference.js';
import { preflightFailures, skippedChecks } from './preflight-checks.js';
import type { MachineSetScope } from './scope.js';

/** The MachineSet's Cluster (undefined when it is not there). */
export function readCluster(s: MachineSetScope): Promise<StoredObject | undefined> {
  return s.ctx.store.get({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: s.object.metadata.namespace, name: clusterNameOf(s.object) });
}

/** Cluster API looks again this long after a preflight check held a scale-up or a remediation. */
export const PREFLIGHT_FAILED_REQUEUE_SECONDS = 15;

async function skipAnnotation(s: MachineSetScope, templates: readonly StoredObject[] | undefined): Promise<string | undefined> {
  const own = s.object.metadata.annotations?.[ANNOTATION_SKIP_PREFLIGHT_CHECKS];
  if (own) return own;
  const configRef = readReference(s.object, 'spec', 'template', 'spec', 'bootstrap', 'configRef');
  if (!configRef) return undefined;
  const template = templates ? templates.find((t) => t.kind === configRef.kind) : await s.ctx.store.get(referenceKey(configRef, s.object.metadata.namespace));
  return template?.metadata.annotations?.[ANNOTATION_SKIP_PREFLIGHT_CHECKS] || undefined;
}

/** The failures that hold `action` ("Scale up", "Machine remediation"); none: go ahead. `templates`: the ones already read. */
export async function preflightGate(s: MachineSetScope, cluster: StoredObject, action: string, templates?: readonly StoredObject[]): Promise<string[]> {
  const cpRef = readReference(cluster, 'spec', 'controlPlaneRef');
  if (!cpRef) return [];
  const skip = await skipAnnotation(s, templates);
  if (skippedChecks(skip).has('All')) return [];
  const resolved = await resolveReference(s.ctx.store, providerLookupOf(s.ctx), cpRef, cluster.metadata.namespace);
  if (resolved.state !== 'Found') return [`failed to perform "${action}": failed to perform preflight checks: ${resolved.message}`];
  return preflightFailures({ cluster, machineSet: s.object, controlPlane: { object: resolved.object, contractVersion: resolved.contractVersion }, ...(skip ? { skip } : {}) });
}
