/** What KCP needs to know about each of its Machines, derived purely from stored objects. */

import { createHash } from 'node:crypto';
import { isRecord, stringAt } from '../../../../shared/contracts/json.js';
import { type KubeObject, groupKindString, isDeleting } from '../../../../shared/contracts/object.js';
import {
  ANNOTATION_CLONED_FROM_GROUPKIND,
  ANNOTATION_CLONED_FROM_NAME,
  ANNOTATION_DELETE_MACHINE,
} from '../common/well-known.js';
import type { KcpSpec } from './kcp-spec.js';

export const DAY_MS = 24 * 60 * 60 * 1000;

/** The Machine's Node as the workload cluster is asked about it (certificates, etcd): its name and providerID, once both are known. */
export function machineNode(machine: KubeObject): { name: string; providerID: string } | undefined {
  const name = stringAt(machine, 'status', 'nodeRef', 'name');
  const providerID = stringAt(machine, 'spec', 'providerID');
  return name && providerID ? { name, providerID } : undefined;
}

/** Hash of the kubeadmConfigSpec a Machine was built from (KCP compares it to spot outdated machines). */
export const ANNOTATION_CONFIG_SPEC_HASH = 'controlplane.cluster.x-k8s.io/kubeadm-config-spec-hash';

export interface MachineFacts {
  name: string;
  creationTimestamp: string;
  failureDomain?: string;
  deleting: boolean;
  ready: boolean;
  upToDate: boolean;
  outdatedReasons: string[];
  deleteAnnotated: boolean;
  version?: string;
  /** nodeRef set: the machine's node joined (the first one initializes the control plane). */
  hasNode: boolean;
}

/** JSON with sorted keys, so equal specs hash equally. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function configSpecHash(kubeadmConfigSpec: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson(kubeadmConfigSpec)).digest('hex').slice(0, 32);
}

export function machineHasNode(machine: KubeObject): boolean {
  return stringAt(machine, 'status', 'nodeRef', 'name') !== undefined;
}

/** Ready: the node joined (nodeRef) or the Machine reached phase Running. */
export function machineReady(machine: KubeObject): boolean {
  return !isDeleting(machine) && (machineHasNode(machine) || stringAt(machine, 'status', 'phase') === 'Running');
}

export interface FactsInputs {
  spec: KcpSpec;
  specHash: string;
  /** The InfraMachine the Machine's infrastructureRef names, if found. */
  infraMachine?: KubeObject;
  now: Date;
}

/** Out-of-date rules of pkg/filters.go UpToDate, as far as capless can observe them. */
export function outdatedReasons(machine: KubeObject, inputs: FactsInputs): string[] {
  const reasons: string[] = [];
  const version = stringAt(machine, 'spec', 'version');
  if (version !== inputs.spec.version) reasons.push(`version ${version ?? 'unset'} != ${inputs.spec.version}`);
  if (machine.metadata.annotations?.[ANNOTATION_CONFIG_SPEC_HASH] !== inputs.specHash) reasons.push('kubeadmConfigSpec changed');
  const ref = inputs.spec.infrastructureRef;
  if (ref) {
    const annotations = inputs.infraMachine?.metadata.annotations ?? {};
    const groupKind = groupKindString({ group: ref.apiGroup, kind: ref.kind });
    if (annotations[ANNOTATION_CLONED_FROM_NAME] !== ref.name || annotations[ANNOTATION_CLONED_FROM_GROUPKIND] !== groupKind) {
      reasons.push('infrastructure template changed');
    }
  }
  // ShouldRolloutBefore: certificates that expire within certificatesExpiryDays of now.
  const days = inputs.spec.certificatesExpiryDays;
  const expiry = stringAt(machine, 'status', 'certificatesExpiryDate');
  if (days && expiry && inputs.now.getTime() + days * DAY_MS > Date.parse(expiry)) reasons.push('Certificates will expire soon');
  const after = inputs.spec.rolloutAfter;
  const created = machine.metadata.creationTimestamp;
  if (after && created && Date.parse(after) <= inputs.now.getTime() && Date.parse(created) < Date.parse(after)) {
    reasons.push('rollout.after passed');
  }
  return reasons;
}

export function machineFacts(machine: KubeObject, inputs: FactsInputs): MachineFacts {
  const reasons = outdatedReasons(machine, inputs);
  const failureDomain = stringAt(machine, 'spec', 'failureDomain') || undefined;
  const version = stringAt(machine, 'spec', 'version');
  return {
    name: machine.metadata.name,
    creationTimestamp: machine.metadata.creationTimestamp ?? '',
    ...(failureDomain ? { failureDomain } : {}),
    deleting: isDeleting(machine),
    ready: machineReady(machine),
    upToDate: reasons.length === 0,
    outdatedReasons: reasons,
    deleteAnnotated: machine.metadata.annotations?.[ANNOTATION_DELETE_MACHINE] !== undefined,
    ...(version ? { version } : {}),
    hasNode: machineHasNode(machine),
  };
}
