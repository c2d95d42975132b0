/**
 * The Machines a MachineHealthCheck watches over (its cluster's, matching its selector, not
 * deleting) and the facts the rules need about each: its conditions, its Node now, when its wait
 * for a Node began.
 */

import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import { isRecord, numberAt, stringAt, valueAt } from '../../../../shared/contracts/json.js';
import { ANNOTATION_PAUSED, isDeleting, type StoredObject } from '../../../../shared/contracts/object.js';
import type { MachineHealthCheck } from '../../../../shared/contracts/schemas/core/machine-health-check.js';
import { selectorMatches } from '../../../../shared/contracts/validation/label-selector.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';
import type { WorkloadCluster } from '../../../../shared/ports/workload-cluster.js';
import { DEFAULT_NODE_STARTUP_TIMEOUT_SECONDS, type HealthChecks, type TargetFacts, type UnhealthyRule } from './health-rules.js';
import { ANNOTATION_REMEDIATE_MACHINE, ANNOTATION_SKIP_REMEDIATION } from './well-known.js';

const MACHINE = { group: 'cluster.x-k8s.io', kind: 'Machine' };

function rulesOf(value: unknown): UnhealthyRule[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    const type = stringAt(item, 'type');
    const status = stringAt(item, 'status');
    const timeoutSeconds = numberAt(item, 'timeoutSeconds') ?? 0;
    return type && status ? [{ type, status, timeoutSeconds }] : [];
  });
}

export function healthChecksOf(mhc: MachineHealthCheck): HealthChecks {
  const checks = mhc.spec.checks;
  return {
    nodeStartupTimeoutSeconds: checks?.nodeStartupTimeoutSeconds ?? DEFAULT_NODE_STARTUP_TIMEOUT_SECONDS,
    unhealthyNodeConditions: rulesOf(checks?.unhealthyNodeConditions),
    unhealthyMachineConditions: rulesOf(checks?.unhealthyMachineConditions),
  };
}

/** Cluster API's shouldSkipRemediation: a paused Machine, or one its operator asked to leave alone. */
export function skipsRemediation(machine: StoredObject): boolean {
  const annotations = machine.metadata.annotations ?? {};
  return ANNOTATION_PAUSED in annotations || ANNOTATION_SKIP_REMEDIATION in annotations;
}

/**
 * Machines of the MachineHealthCheck's cluster its selector matches (another cluster's never
 * are), not being deleted and not skipping remediation: the others are not checked, counted or
 * remediated, as in Cluster API's getTargetsFromMHC.
 */
export async function targetMachines(store: ObjectStore, mhc: MachineHealthCheck, namespace: string): Promise<StoredObject[]> {
  const machines = await store.listByCluster(namespace, mhc.spec.clusterName, MACHINE);
  return machines.filter(
    (m) =>
      m.kind === MACHINE.kind &&
      stringAt(m, 'spec', 'clusterName') === mhc.spec.clusterName &&
      !isDeleting(m) &&
      !skipsRemediation(m) &&
      selectorMatches(mhc.spec.selector, m.metadata.labels ?? {}),
  );
}

/** The later of the Machine's creation and the Cluster becoming able to host Nodes. */
function startedAt(machine: StoredObject, cluster: StoredObject | undefined): string {
  const times = [machine.metadata.creationTimestamp];
  for (const type of ['InfrastructureReady', 'ControlPlaneInitialized']) {
    const condition = findCondition(conditionsOf(cluster?.status), type);
    if (condition?.status === 'True') times.push(condition.lastTransitionTime);
  }
  return times.reduce((latest, t) => (Date.parse(t) > Date.parse(latest) ? t : latest));
}

export async function targetFacts(
  machine: StoredObject,
  cluster: StoredObject | undefined,
  workload: WorkloadCluster,
): Promise<TargetFacts> {
  const providerID = stringAt(machine, 'spec', 'providerID');
  const node = providerID
    ? await workload.findNodeByProviderID({ namespace: machine.metadata.namespace, name: stringAt(machine, 'spec', 'clusterName') ?? '' }, providerID)
    : undefined;
  return {
    remediateAnnotation: machine.metadata.annotations?.[ANNOTATION_REMEDIATE_MACHINE] !== undefined,
    hadNode: isRecord(valueAt(machine, 'status', 'nodeRef')),
    node: node ? { conditions: node.conditions ?? [{ type: 'Ready', status: node.ready ? 'True' : 'False' }] } : undefined,
    machineConditions: conditionsOf(machine.status),
    startedAt: startedAt(machine, cluster),
  };
}
