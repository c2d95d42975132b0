/**
 * ClusterClass (Cluster API's core/reconcilers/clusterclass): every referenced template must
 * exist (RefVersionsUpToDate; a missing one is named in the condition and retried); the class
 * owns its templates (so they go with it); `status.variables` lists the inline definitions
 * (`from: inline`) and VariablesReady says they are usable. Variables of external patches are
 * discovered by the Runtime SDK (another issue): a class with external patches keeps
 * VariablesReady until then with what it knows.
 */

import { groupOf, ownerReferenceTo, type StoredObject } from '../../../../shared/contracts/object.js';
import { type ClassTemplateRef, clusterClassSpecSchema } from '../../../../shared/contracts/schemas/core/cluster-class.js';
import { CLUSTER_GROUP } from '../../../../shared/contracts/schemas/groups.js';
import { classVariableDefinitions } from '../../../../shared/contracts/topology/topology-variables.js';
import { updateFresh } from '../../engine/references/update-fresh.js';
import type { PhaseResult, ReconcileContext, ReconcilerDefinition, Scope, StatusUpdate } from '../../engine/skeleton/types.js';

export const TEMPLATE_MISSING_REQUEUE_SECONDS = 30;

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

function variablesPhase(s: ClusterClassScope): PhaseResult {
  s.variables = classVariableDefinitions(s.object.spec).map((v) => ({
    name: v.name,
    definitionsConflict: false,
    definitions: [{ from: 'inline', required: v.required, schema: { openAPIV3Schema: v.openAPIV3Schema } }],
  }));
  s.conditions.push({ type: 'VariablesReady', status: 'True', reason: 'VariablesReady' });
  return {};
}

export const clusterClassReconciler: ReconcilerDefinition<ClusterClassScope> = {
  kind: { group: CLUSTER_GROUP, kind: 'ClusterClass' },
  watches: [],
  createScope: (ctx: ReconcileContext, object: StoredObject) => ({ ctx, object, conditions: [], variables: [] }),
  phases: [variablesPhase, templatesPhase],
  deletePhases: [],
  computeStatus: (s: ClusterClassScope): StatusUpdate => ({ fields: { variables: s.variables } }),
};
