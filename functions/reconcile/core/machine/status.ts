/** Pure Machine status: phase, summary conditions and the status fields. */

import type { ConditionInput } from '../../../../shared/contracts/conditions.js';
import { stringAt } from '../../../../shared/contracts/json.js';
import { isDeleting } from '../../../../shared/contracts/object.js';
import type { StatusUpdate } from '../../engine/skeleton/types.js';
import type { MachineScope } from './scope.js';
import { initializationStatus } from '../../../../shared/contracts/initialization.js';
import { type ConditionLookup, machineReadyCondition, type ReadinessGate } from './ready-summary.js';

export type MachinePhase = 'Pending' | 'Provisioning' | 'Provisioned' | 'Running' | 'Deleting';

export interface MachinePhaseFacts {
  deleting: boolean;
  bootstrapDataSecretCreated: boolean;
  infrastructureProvisioned: boolean;
  providerID: boolean;
  nodeRef: boolean;
}

/** capi-contract.md §3.2 phase rules. */
export function machinePhase(f: MachinePhaseFacts): MachinePhase {
  if (f.deleting) return 'Deleting';
  if (f.nodeRef && f.infrastructureProvisioned) return 'Running';
  if (f.providerID) return 'Provisioned';
  if (f.bootstrapDataSecretCreated) return 'Provisioning';
  return 'Pending';
}

export interface MinReadyFacts {
  /** spec.minReadySeconds (0 when unset). */
  minReadySeconds: number;
  /** When the stored Ready condition last became True, if it is True. */
  readySince?: string;
  now: Date;
}

export interface MachineSummary {
  conditions: ConditionInput[];
  /** Set while Available waits for minReadySeconds. */
  requeueAfterSeconds?: number;
}

function availableCondition(ready: ConditionInput, facts: MinReadyFacts): { condition: ConditionInput; wait?: number } {
  if (ready.status !== 'True') return { condition: { type: 'Available', status: 'False', reason: 'NotReady' } };
  if (facts.minReadySeconds <= 0) return { condition: { type: 'Available', status: 'True', reason: 'Available' } };
  // Ready just turned True in this run: the clock starts now.
  const since = facts.readySince ? new Date(facts.readySince).getTime() : facts.now.getTime();
  const wait = Math.ceil((since + facts.minReadySeconds * 1000 - facts.now.getTime()) / 1000);
  return wait <= 0
    ? { condition: { type: 'Available', status: 'True', reason: 'Available' } }
    : {
        condition: { type: 'Available', status: 'False', reason: 'WaitingForMinReadySeconds', message: `Ready for less than minReadySeconds (${facts.minReadySeconds}s)` },
        wait,
      };
}

/**
 * Ready (ready-summary.ts); Available = Ready for at least minReadySeconds; UpToDate is always
 * True here (MachineDeployments compare template hashes).
 */
export function machineSummaryConditions(lookup: ConditionLookup, gates: readonly ReadinessGate[], facts: MinReadyFacts): MachineSummary {
  const ready = machineReadyCondition(lookup, gates);
  const available = availableCondition(ready, facts);
  return {
    conditions: [ready, available.condition, { type: 'UpToDate', status: 'True', reason: 'UpToDate' }],
    ...(available.wait ? { requeueAfterSeconds: available.wait } : {}),
  };
}

export function computeMachineStatus(s: MachineScope): StatusUpdate {
  const providerID = stringAt(s.desired, 'spec', 'providerID');
  const phase = machinePhase({
    deleting: isDeleting(s.object),
    bootstrapDataSecretCreated: s.bootstrapDataSecretCreated,
    infrastructureProvisioned: s.infrastructureProvisioned,
    providerID: Boolean(providerID),
    nodeRef: s.node !== undefined,
  });
  return {
    fields: {
      ...initializationStatus({
        bootstrapDataSecretCreated: s.bootstrapDataSecretCreated,
        infrastructureProvisioned: s.infrastructureProvisioned,
      }),
      phase,
      ...(s.addresses.length > 0 ? { addresses: s.addresses } : {}),
      ...(s.failureDomain ? { failureDomain: s.failureDomain } : {}),
      ...(s.node ? { nodeRef: { name: s.node.name } } : {}),
      ...(s.node?.info ? { nodeInfo: s.node.info } : {}),
      ...(Object.keys(s.deletion).length > 0 ? { deletion: s.deletion } : {}),
      ...(s.certificatesExpiryDate ? { certificatesExpiryDate: s.certificatesExpiryDate } : {}),
    },
  };
}
