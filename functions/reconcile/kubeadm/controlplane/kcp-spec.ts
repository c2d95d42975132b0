/** Typed reads of a stored (admitted) KubeadmControlPlane spec. */

import { isRecord, numberAt, recordAt, stringAt, stringEntriesOf } from '../../../../shared/contracts/json.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import { usesExternalEtcd } from '../common/cluster-certificates.js';

export interface ObjectRef {
  apiGroup: string;
  kind: string;
  name: string;
}

export interface KcpSpec {
  replicas: number;
  version: string;
  maxSurge: 0 | 1;
  infrastructureRef?: ObjectRef;
  kubeadmConfigSpec: Record<string, unknown>;
  machineLabels: Record<string, string>;
  machineAnnotations: Record<string, string>;
  /** machineTemplate.spec minus infrastructureRef: readinessGates (the mandatory ones first), deletion, taints. */
  machineSpecExtras: Record<string, unknown>;
  /** rollout.after (RFC 3339) if set. */
  rolloutAfter?: string;
  /** rollout.before.certificatesExpiryDays: Machines whose certificates expire within it are rolled out. */
  certificatesExpiryDays?: number;
}

export function objectRef(value: unknown): ObjectRef | undefined {
  if (!isRecord(value)) return undefined;
  const { apiGroup, kind, name } = value;
  if (typeof apiGroup !== 'string' || typeof kind !== 'string' || typeof name !== 'string') return undefined;
  return { apiGroup, kind, name };
}

/**
 * The readiness gates Cluster API's KubeadmControlPlane sets on every Machine it owns (desired_state.go
 * MandatoryMachineReadinessGates, and the etcd ones unless etcd is external): a control-plane
 * Machine is Ready only once its static Pods (and etcd member) are healthy (ADR 0176). Cluster
 * API's `NodeKubeadmLabelsAndTaintsSet` is not among them: capless does not report it.
 */
const MANDATORY_READINESS_GATES = ['APIServerPodHealthy', 'ControllerManagerPodHealthy', 'SchedulerPodHealthy'];
const ETCD_READINESS_GATES = ['EtcdPodHealthy', 'EtcdMemberHealthy'];

/** The mandatory gates first, then the template's, each condition type once. */
function readinessGates(templateGates: unknown, stackedEtcd: boolean): unknown[] {
  const mandatory = [...MANDATORY_READINESS_GATES, ...(stackedEtcd ? ETCD_READINESS_GATES : [])].map((conditionType) => ({ conditionType }));
  const seen = new Set<unknown>();
  return [...mandatory, ...(Array.isArray(templateGates) ? templateGates : [])].filter((gate) => {
    const type = isRecord(gate) ? gate.conditionType : gate;
    if (seen.has(type)) return false;
    seen.add(type);
    return true;
  });
}

export function readKcpSpec(kcp: KubeObject): KcpSpec {
  const template = recordAt(kcp, 'spec', 'machineTemplate') ?? {};
  const { infrastructureRef, ...templateSpec } = recordAt(template, 'spec') ?? {};
  const stackedEtcd = !usesExternalEtcd(recordAt(kcp, 'spec', 'kubeadmConfigSpec'));
  const machineSpecExtras = { ...templateSpec, readinessGates: readinessGates(templateSpec.readinessGates, stackedEtcd) };
  const infra = objectRef(infrastructureRef);
  const rolloutAfter = stringAt(kcp, 'spec', 'rollout', 'after');
  const certificatesExpiryDays = numberAt(kcp, 'spec', 'rollout', 'before', 'certificatesExpiryDays');
  return {
    replicas: numberAt(kcp, 'spec', 'replicas') ?? 1,
    version: stringAt(kcp, 'spec', 'version') ?? '',
    maxSurge: numberAt(kcp, 'spec', 'rollout', 'strategy', 'rollingUpdate', 'maxSurge') === 0 ? 0 : 1,
    ...(infra ? { infrastructureRef: infra } : {}),
    kubeadmConfigSpec: recordAt(kcp, 'spec', 'kubeadmConfigSpec') ?? {},
    machineLabels: stringEntriesOf(recordAt(template, 'metadata', 'labels')),
    machineAnnotations: stringEntriesOf(recordAt(template, 'metadata', 'annotations')),
    machineSpecExtras,
    ...(rolloutAfter ? { rolloutAfter } : {}),
    ...(certificatesExpiryDays ? { certificatesExpiryDays } : {}),
  };
}
