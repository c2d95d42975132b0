/** InMemoryCluster: provisioned at once with a simulated endpoint and failure domains (v1beta2 contract). */

import { INFRASTRUCTURE_GROUP } from '../../../../../shared/contracts/providers/builtin-providers.js';
import { readEndpoint } from '../../../../../shared/contracts/providers/fields.js';
import { valueAt } from '../../../../../shared/contracts/json.js';
import type { PhaseResult, ReconcileContext, ReconcilerDefinition, Scope } from '../../../engine/skeleton/types.js';
import type { StoredObject } from '../../../../../shared/contracts/object.js';
import { updateFresh } from '../../../engine/references/update-fresh.js';
import { simulatedEndpoint } from './simulation.js';
import { computeInMemoryClusterStatus } from './status.js';

export type InMemoryClusterScope = Scope;

/** Fills `spec.controlPlaneEndpoint` when empty (the one spec write of its life). */
export async function ensureEndpointPhase(s: InMemoryClusterScope): Promise<PhaseResult> {
  const endpoint = simulatedEndpoint(s.object.metadata.namespace, s.object.metadata.name);
  const written = await updateFresh(s.ctx.store, s.object, (current) =>
    readEndpoint(valueAt(current, 'spec', 'controlPlaneEndpoint'))
      ? undefined
      : { ...current, spec: { ...current.spec, controlPlaneEndpoint: endpoint } },
  );
  if (written) s.object = written;
  return {};
}

export function readyPhase(s: InMemoryClusterScope): PhaseResult {
  s.conditions.push({ type: 'Ready', status: 'True', reason: 'Provisioned' });
  return {};
}

export const inMemoryClusterReconciler: ReconcilerDefinition<InMemoryClusterScope> = {
  kind: { group: INFRASTRUCTURE_GROUP, kind: 'InMemoryCluster' },
  // ensureEndpointPhase fills the endpoint and goes on with the same run.
  fillsOwnSpec: ['spec.controlPlaneEndpoint'],
  watches: [],
  createScope: (ctx: ReconcileContext, object: StoredObject) => ({ ctx, object, conditions: [] }),
  phases: [ensureEndpointPhase, readyPhase],
  deletePhases: [],
  computeStatus: computeInMemoryClusterStatus,
};
