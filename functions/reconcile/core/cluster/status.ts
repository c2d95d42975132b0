/** Pure Cluster status: phase, summary conditions and status fields. */

import type { ConditionInput } from '../../../../shared/contracts/conditions.js';
import { readEndpoint } from '../../../../shared/contracts/providers/fields.js';
import { isDeleting } from '../../../../shared/contracts/object.js';
import type { StatusUpdate } from '../../engine/skeleton/types.js';
import type { ReplicaCounters } from './counters.js';
import type { ClusterScope } from './scope.js';
import { initializationStatus } from '../../../../shared/contracts/initialization.js';

export type ClusterPhase = 'Pending' | 'Provisioning' | 'Provisioned' | 'Deleting';

export interface ClusterPhaseFacts {
  deleting: boolean;
  hasReference: boolean;
  infrastructureProvisioned: boolean;
  endpointValid: boolean;
}

/** capi-contract.md §3.1 phase rules. */
export function clusterPhase(f: ClusterPhaseFacts): ClusterPhase {
  if (f.deleting) return 'Deleting';
  if (f.infrastructureProvisioned && f.endpointValid) return 'Provisioned';
  if (f.hasReference) return 'Provisioning';
  return 'Pending';
}

export function workersAvailableCondition(workers: ReplicaCounters | undefined): ConditionInput {
  if (!workers || workers.availableReplicas >= workers.desiredReplicas) {
    return { type: 'WorkersAvailable', status: 'True', reason: 'Available' };
  }
  return {
    type: 'WorkersAvailable',
    status: 'False',
    reason: 'NotAvailable',
    message: `${workers.availableReplicas} of ${workers.desiredReplicas} worker Machines available`,
  };
}

const AVAILABLE_INPUTS = ['InfrastructureReady', 'ControlPlaneInitialized', 'ControlPlaneAvailable', 'WorkersAvailable'] as const;

/** WorkersAvailable, then Available and Ready: True when every input is True, else naming the ones that are not. */
export function clusterSummaryConditions(conditions: readonly ConditionInput[], workers: ReplicaCounters | undefined): ConditionInput[] {
  const all = [...conditions, workersAvailableCondition(workers)];
  const notTrue = AVAILABLE_INPUTS.filter((type) => all.find((c) => c.type === type)?.status !== 'True');
  const summary: Omit<ConditionInput, 'type'> =
    notTrue.length === 0
      ? { status: 'True', reason: 'Available' }
      : { status: 'False', reason: 'NotAvailable', message: `not yet: ${notTrue.join(', ')}` };
  return [workersAvailableCondition(workers), { type: 'Available', ...summary }, { type: 'Ready', ...summary }];
}

const ZERO: ReplicaCounters = { desiredReplicas: 0, replicas: 0, readyReplicas: 0, availableReplicas: 0, upToDateReplicas: 0 };

export function computeClusterStatus(s: ClusterScope): StatusUpdate {
  const spec = s.desired.spec ?? {};
  const phase = clusterPhase({
    deleting: isDeleting(s.object),
    hasReference: spec.infrastructureRef !== undefined || spec.controlPlaneRef !== undefined,
    infrastructureProvisioned: s.infrastructureProvisioned,
    endpointValid: readEndpoint(spec.controlPlaneEndpoint) !== undefined,
  });
  const previous = s.object.status ?? {};
  return {
    fields: {
      ...initializationStatus({
        infrastructureProvisioned: s.infrastructureProvisioned,
        controlPlaneInitialized: s.controlPlaneInitialized,
      }),
      controlPlane: s.controlPlane ?? previous.controlPlane ?? ZERO,
      workers: s.workers ?? previous.workers ?? ZERO,
      ...(s.failureDomains.length > 0 ? { failureDomains: s.failureDomains } : {}),
      phase,
    },
  };
}
