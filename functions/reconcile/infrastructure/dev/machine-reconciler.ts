/**
 * DevMachine (Cluster API's development provider): `backend.inMemory` runs the in-memory provider's
 * simulated VM (the same phases as InMemoryMachine, start-up time from the backend's stage
 * durations and jitter; a control-plane one runs kubeadm's static Pods and an etcd member); `backend.docker` has no backend here and waits with ProviderNotInstalled.
 */

import { INFRASTRUCTURE_GROUP } from '../../../../shared/contracts/providers/builtin-providers.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import type { PhaseResult, ReconcileContext, ReconcilerDefinition } from '../../engine/skeleton/types.js';
import { ownerMachinePhase, provisionPhase, simulatedKubeadmPhase } from '../inmemory/machine/phases.js';
import type { InMemoryMachineScope } from '../inmemory/machine/scope.js';
import { computeInMemoryMachineStatus } from '../inmemory/machine/status.js';
import { devBackendOf, devStartupSeconds } from './backend.js';
import { backendNotServedCondition } from './not-served.js';
import { adoptingMachineWatch } from '../../engine/references/adopting-machine-watch.js';

export function createDevMachineScope(ctx: ReconcileContext, object: StoredObject): InMemoryMachineScope {
  return { ctx, object, conditions: [], provisioned: false, startupSeconds: devStartupSeconds(object) };
}

/** Only the in-memory backend runs here; any other stops the reconcile with a condition saying so. */
export function inMemoryBackendPhase(s: InMemoryMachineScope): PhaseResult {
  const backend = devBackendOf(s.object);
  if (backend === 'inMemory') return {};
  s.conditions.push(backendNotServedCondition(s.object.kind, backend));
  return { stop: true };
}

export const devMachineReconciler: ReconcilerDefinition<InMemoryMachineScope> = {
  kind: { group: INFRASTRUCTURE_GROUP, kind: 'DevMachine' },
  // provisionPhase gives it its providerID, written with the provisioned status in one write.
  fillsOwnSpec: ['spec.providerID'],
  watches: [
    adoptingMachineWatch('spec.infrastructureRef', ['spec.bootstrap.dataSecretName', 'spec.failureDomain', 'metadata.ownerReferences']),
  ],
  createScope: createDevMachineScope,
  // A control-plane Machine's simulated kubeadm runs its static Pods and etcd member, as on an InMemoryMachine.
  phases: [inMemoryBackendPhase, ownerMachinePhase, provisionPhase, simulatedKubeadmPhase],
  deletePhases: [],
  computeStatus: computeInMemoryMachineStatus,
};
