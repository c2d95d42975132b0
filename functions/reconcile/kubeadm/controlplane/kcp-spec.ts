/** Typed reads of a stored (admitted) KubeadmControlPlane spec. */

import { isRecord, numberAt, recordAt, stringAt, stringEntriesOf } from '../../../../shared/contracts/json.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';

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
  /** machineTemplate.spec minus infrastructureRef: readinessGates, deletion, taints. */
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

export function readKcpSpec(kcp: KubeObject): KcpSpec {
  const template = recordAt(kcp, 'spec', 'machineTemplate') ?? {};
  const { infrastructureRef, ...machineSpecExtras } = recordAt(template, 'spec') ?? {};
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
