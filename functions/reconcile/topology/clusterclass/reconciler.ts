/**
 * ClusterClass (Cluster API's core/reconcilers/clusterclass): every referenced template must
 * exist (RefVersionsUpToDate; a missing one is named in the condition and retried); the class
 * owns its templates (so they go with it); `status.variables` lists the inline definitions
 * (`from: inline`) and those external patches' DiscoverVariables answers define (`from: <patch>`,
 * variables.ts); VariablesReady says they are usable, or why discovery failed.
 */

import { groupOf, ownerReferenceTo, type StoredObject } from '../../../../shared/contracts/object.js';
import { type ClassTemplateRef, clusterClassSpecSchema } from '../../../../shared/contracts/schemas/core/cluster-class.js';
import { CLUSTER_GROUP } from '../../../../shared/contracts/schemas/groups.js';
import { isRecord } from '../../../../shared/contracts/json.js';
import { extensionCallerFrom } from '../../../../shared/ports/runtime-extensions.js';
import { updateFresh } from '../../engine/references/update-fresh.js';
import type { PhaseResult, ReconcileContext, ReconcilerDefinition, Scope, StatusUpdate } from '../../engine/skeleton/types.js';
import { EXTENSION_CONFIG_KIND } from '../../runtime/registrations.js';
import { reconcileClassVariables } from './variables.js';

export const TEMPLATE_MISSING_REQUEUE_SECONDS = 30;
/** A failed variable discovery is tried again after this long (Cluster API backs off on the error). */
export const VARIABLE_DISCOVERY_RETRY_SECONDS = 20;
const VARIABLE_DISCOVERY_FAILED = 'VariableDiscoveryFailed';

interface ClusterClassScope extends Scope {
  variables: unknown[];
}

export function templateRefsOf(spec: unknown): ClassTemplateRef[] {
  const parsed = clusterClassSpecSchema.safeParse(spec);
  if (!parsed.success) return [];
  const s = parsed.data;
  const refs: ClassTemplateRef[] = [s.infrastructure.templateRef, s.controlPlane.templateRef];
  if (s.controlPlane.machineInfrastructure) refs.push(s.controlPlane.machineInfrastructure.templateRef);
  for (const md of s.workers?.machineDeployments ?? []) refs.push(md.bootstrap.templateRef, md.infrastructure.templateRef);
  return refs;
}

async function templatesPhase(s: ClusterClassScope): Promise<PhaseResult> {
  const { namespace } = s.object.metadata;
  const missing: string[] = [];
  for (const ref of templateRefsOf(s.object.spec)) {
    const template = await s.ctx.store.get({ group: groupOf(ref.apiVersion), kind: ref.kind, namespace, name: ref.name });
    if (!template) {
      missing.push(`${ref.kind} ${namespace}/${ref.name}`);
      continue;
    }
    await adopt(s, template);
  }
  if (missing.length > 0) {
    s.conditions.push({ type: 'RefVersionsUpToDate', status: 'False', reason: 'InternalError', message: `templates not found: ${[...new Set(missing)].join(', ')}` });
    return { requeueAfterSeconds: TEMPLATE_MISSING_REQUEUE_SECONDS };
  }
  s.conditions.push({ type: 'RefVersionsUpToDate', status: 'True', reason: 'RefVersionsUpToDate' });
  return {};
}

/** Cluster API's ClusterClass controller sets itself as a (non-controller) owner of its templates. */
async function adopt(s: ClusterClassScope, template: StoredObject): Promise<void> {
  await updateFresh(s.ctx.store, template, (current) =>
    (current.metadata.ownerReferences ?? []).some((r) => r.uid === s.object.metadata.uid)
      ? undefined
      : { ...current, metadata: { ...current.metadata, ownerReferences: [...(current.metadata.ownerReferences ?? []), ownerReferenceTo(s.object, false)] } },
  );
}

async function variablesPhase(s: ClusterClassScope): Promise<PhaseResult> {
  const patches = clusterClassSpecSchema.safeParse(s.object.spec).data?.patches ?? [];
  const outcome = await reconcileClassVariables(s.object.spec, patches, extensionCallerFrom(s.ctx.providers), s.object.metadata.namespace);
  if (outcome.ok) {
    s.variables = outcome.variables;
    s.conditions.push({ type: 'VariablesReady', status: 'True', reason: 'VariablesReady' });
    return {};
  }
  // A failed discovery keeps what was discovered before (Cluster API does not drop old variables).
  const previous = isRecord(s.object.status) && Array.isArray(s.object.status.variables) ? s.object.status.variables : [];
  s.variables = outcome.variables ?? previous;
  s.conditions.push({ type: 'VariablesReady', status: 'False', reason: VARIABLE_DISCOVERY_FAILED, message: outcome.message });
  return { requeueAfterSeconds: VARIABLE_DISCOVERY_RETRY_SECONDS };
}

export const clusterClassReconciler: ReconcilerDefinition<ClusterClassScope> = {
  kind: { group: CLUSTER_GROUP, kind: 'ClusterClass' },
  // Cluster API's extensionConfigToClusterClass: an ExtensionConfig whose handlers are discovered,
  // changed or gone wakes the classes whose patches discover variables through it, instead of
  // their VARIABLE_DISCOVERY_RETRY_SECONDS.
  watches: [
    {
      kind: EXTENSION_CONFIG_KIND,
      by: 'referrer',
      field: 'spec.patches.external.discoverVariablesExtension',
      changes: ['spec', 'status.handlers'],
    },
  ],
  createScope: (ctx: ReconcileContext, object: StoredObject) => ({ ctx, object, conditions: [], variables: [] }),
  phases: [variablesPhase, templatesPhase],
  deletePhases: [],
  computeStatus: (s: ClusterClassScope): StatusUpdate => ({ fields: { variables: s.variables } }),
};
