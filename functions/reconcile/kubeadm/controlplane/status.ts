/** KubeadmControlPlane status and conditions: pure functions of what the phases found. */

import type { ConditionInput } from '../../../../shared/contracts/conditions.js';
import { LABEL_CLUSTER_NAME } from '../../../../shared/contracts/object.js';
import { LABEL_CONTROL_PLANE } from '../common/well-known.js';
import type { StatusUpdate } from '../../engine/skeleton/types.js';
import { ANNOTATION_SKIP_COREDNS, ANNOTATION_SKIP_KUBE_PROXY, type AddonSkips, type RemediationInProgress } from './annotations.js';
import type { MachineFacts } from './machine-facts.js';
import type { ControlPlanePlan } from './plan.js';
import { initializationStatus } from '../../../../shared/contracts/initialization.js';
import { availableCondition, type ControlPlaneHealth } from './available.js';

export const CONDITIONS = {
  available: 'Available',
  initialized: 'Initialized',
  certificatesAvailable: 'CertificatesAvailable',
  machinesReady: 'MachinesReady',
  machinesUpToDate: 'MachinesUpToDate',
  machinesCreated: 'MachinesCreated',
  scalingUp: 'ScalingUp',
  scalingDown: 'ScalingDown',
  rollingOut: 'RollingOut',
  remediating: 'Remediating',
  coreDNSManaged: 'CoreDNSManaged',
  kubeProxyManaged: 'KubeProxyManaged',
  deleting: 'Deleting',
} as const;

export interface KcpStatusInputs {
  clusterName?: string;
  machines: readonly MachineFacts[];
  initialized: boolean;
}

/** Compares `v1.31.2`-style versions numerically; pre-release tags are ignored. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.replace(/^v/, '').split(/[-+]/)[0]?.split('.').map((p) => Number.parseInt(p, 10) || 0) ?? [];
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

/** The lowest version among the machines (v1beta2 `status.version`). */
export function lowestVersion(machines: readonly MachineFacts[]): string | undefined {
  const versions = machines.map((m) => m.version).filter((v): v is string => v !== undefined);
  return versions.sort(compareVersions)[0];
}

export function controlPlaneSelector(clusterName: string | undefined): string {
  return clusterName ? `${LABEL_CLUSTER_NAME}=${clusterName},${LABEL_CONTROL_PLANE}` : LABEL_CONTROL_PLANE;
}

export function kcpStatus(inputs: KcpStatusInputs): StatusUpdate {
  const live = inputs.machines;
  const ready = live.filter((m) => m.ready).length;
  const version = lowestVersion(live);
  return {
    fields: {
      selector: controlPlaneSelector(inputs.clusterName),
      replicas: live.length,
      readyReplicas: ready,
      availableReplicas: ready,
      upToDateReplicas: live.filter((m) => m.upToDate && !m.deleting).length,
      ...(version ? { version } : {}),
      ...initializationStatus({ controlPlaneInitialized: inputs.initialized }),
    },
  };
}

export interface KcpConditionInputs {
  replicas: number;
  initialized: boolean;
  machines: readonly MachineFacts[];
  missingCertificates: readonly string[];
  plan?: ControlPlanePlan;
  remediation?: RemediationInProgress;
  /** Why a Machine marked for remediation waits (etcd quorum, rollout …). */
  remediationBlocked?: string;
  skips: AddonSkips;
  creationProblem?: string;
  /** What the health check learned this reconcile; Available needs it. */
  health?: ControlPlaneHealth;
  /** When Initialized last became True. */
  initializedSince?: string;
  now: Date;
}

function condition(type: string, ok: boolean, reason: string, message?: string): ConditionInput {
  return { type, status: ok ? 'True' : 'False', reason, ...(message ? { message } : {}) };
}

function listed(label: string, names: readonly string[]): string | undefined {
  return names.length ? `${label}: ${names.join(', ')}` : undefined;
}

function machineConditions(inputs: KcpConditionInputs): ConditionInput[] {
  const { machines } = inputs;
  const notReady = machines.filter((m) => !m.ready).map((m) => m.name);
  const outdated = machines.filter((m) => !m.upToDate).map((m) => m.name);
  return [
    machines.length === 0
      ? condition(CONDITIONS.machinesReady, false, 'NoReplicas', 'no control plane machines')
      : condition(CONDITIONS.machinesReady, notReady.length === 0, notReady.length === 0 ? 'Ready' : 'NotReady', listed('not ready', notReady)),
    inputs.creationProblem
      ? condition(CONDITIONS.machinesCreated, false, 'MachineCreationFailed', inputs.creationProblem)
      : condition(CONDITIONS.machinesCreated, true, 'Created'),
    condition(CONDITIONS.machinesUpToDate, outdated.length === 0, outdated.length === 0 ? 'UpToDate' : 'NotUpToDate', listed('outdated', outdated)),
  ];
}

function scalingConditions(inputs: KcpConditionInputs): ConditionInput[] {
  const { machines, replicas } = inputs;
  const outdated = machines.filter((m) => !m.upToDate).length;
  const live = machines.filter((m) => !m.deleting).length;
  const waiting = inputs.plan?.type === 'wait' ? `; ${inputs.plan.message}` : '';
  const up = live < replicas;
  const down = live > replicas && outdated === 0;
  return [
    condition(CONDITIONS.scalingUp, up, up ? 'ScalingUp' : 'NotScalingUp', up ? `scaling up from ${live} to ${replicas}${waiting}` : undefined),
    condition(CONDITIONS.scalingDown, down, down ? 'ScalingDown' : 'NotScalingDown', down ? `scaling down from ${live} to ${replicas}${waiting}` : undefined),
    condition(CONDITIONS.rollingOut, outdated > 0, outdated > 0 ? 'RollingOut' : 'NotRollingOut', outdated > 0 ? `rolling out ${outdated} machine(s)${waiting}` : undefined),
  ];
}

function annotationConditions(inputs: KcpConditionInputs): ConditionInput[] {
  return [
    inputs.remediation
      ? condition(CONDITIONS.remediating, true, 'RemediationInProgress', `remediation in progress for machine ${inputs.remediation.machine}; scaling and rollout are on hold`)
      : inputs.remediationBlocked
        ? condition(CONDITIONS.remediating, false, 'RemediationBlocked', inputs.remediationBlocked)
        : condition(CONDITIONS.remediating, false, 'NotRemediating'),
    inputs.skips.coreDNS
      ? condition(CONDITIONS.coreDNSManaged, false, 'Skipped', `CoreDNS management is skipped (annotation ${ANNOTATION_SKIP_COREDNS})`)
      : condition(CONDITIONS.coreDNSManaged, false, 'NotManaged', 'capless does not update CoreDNS yet (Cluster API’s UpdateCoreDNS): it stays as kubeadm init installed it'),
    inputs.skips.kubeProxy
      ? condition(CONDITIONS.kubeProxyManaged, false, 'Skipped', `kube-proxy management is skipped (annotation ${ANNOTATION_SKIP_KUBE_PROXY})`)
      : condition(CONDITIONS.kubeProxyManaged, true, 'Managed'),
  ];
}

export function kcpConditions(inputs: KcpConditionInputs): ConditionInput[] {
  return [
    condition(CONDITIONS.initialized, inputs.initialized, inputs.initialized ? 'Initialized' : 'NotInitialized'),
    availableCondition({
      initialized: inputs.initialized,
      now: inputs.now,
      deleting: false,
      certificatesAvailable: inputs.missingCertificates.length === 0,
      ...(inputs.initializedSince ? { initializedSince: inputs.initializedSince } : {}),
      ...(inputs.health ? { health: inputs.health } : {}),
    }),
    inputs.missingCertificates.length === 0
      ? condition(CONDITIONS.certificatesAvailable, true, 'Available')
      : condition(CONDITIONS.certificatesAvailable, false, 'CertificatesMissing', `missing: ${inputs.missingCertificates.join(', ')}`),
    ...machineConditions(inputs),
    ...scalingConditions(inputs),
    ...annotationConditions(inputs),
  ];
}

/** Conditions while the phases cannot get as far as looking at machines. */
export function kcpWaitingConditions(reason: string, message: string): ConditionInput[] {
  return [condition(CONDITIONS.available, false, reason, message)];
}
