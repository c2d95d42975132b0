/** DevCluster: `backend.inMemory` is provisioned at once like an InMemoryCluster; `backend.docker` waits with ProviderNotInstalled. */

import type { StoredObject } from '../../../../shared/contracts/object.js';
import { INFRASTRUCTURE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import type { PhaseResult, ReconcileContext, ReconcilerDefinition, Scope, StatusUpdate } from '../../engine/skeleton/types.js';
import { ensureEndpointPhase, readyPhase } from '../inmemory/cluster/reconciler.js';
import { computeInMemoryClusterStatus } from '../inmemory/cluster/status.js';
import { devBackendOf } from './backend.js';
import { backendNotServedCondition } from './not-served.js';

interface DevClusterScope extends Scope {
  served: boolean;
}

function backendPhase(s: DevClusterScope): PhaseResult {
  const backend = devBackendOf(s.object);
  if (backend === 'inMemory') return {};
  s.served = false;
  s.conditions.push(backendNotServedCondition(s.object.kind, backend));
  return { stop: true };
}

function computeDevClusterStatus(s: DevClusterScope): StatusUpdate {
  return s.served ? computeInMemoryClusterStatus(s) : { fields: { initialization: { provisioned: false } } };
}

export const devClusterReconciler: ReconcilerDefinition<DevClusterScope> = {
  kind: { group: INFRASTRUCTURE_GROUP, kind: 'DevCluster' },
  watches: [],
  createScope: (ctx: ReconcileContext, object: StoredObject) => ({ ctx, object, conditions: [], served: true }),
  phases: [backendPhase, ensureEndpointPhase, readyPhase],
  deletePhases: [],
  computeStatus: computeDevClusterStatus,
};
