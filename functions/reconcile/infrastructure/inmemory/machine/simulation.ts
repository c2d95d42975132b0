/** The simulated VM of an InMemoryMachine: readiness time, failure injection, address and node. */

import { isRecord, numberAt, stringAt, valueAt } from '../../../../../shared/contracts/json.js';
import type { StoredObject } from '../../../../../shared/contracts/object.js';
import type { MachineAddress } from '../../../../../shared/contracts/providers/fields.js';
import { stableHash } from '../../../engine/hashing/stable-hash.js';

export const DEFAULT_STARTUP_SECONDS = 2;

export type FailureMode = 'None' | 'NeverReady' | 'Fail';

export function failureModeOf(obj: StoredObject): FailureMode {
  const mode = valueAt(obj, 'spec', 'failure', 'mode');
  return mode === 'NeverReady' || mode === 'Fail' ? mode : 'None';
}

export function failureMessageOf(obj: StoredObject): string {
  const failure = valueAt(obj, 'spec', 'failure');
  return isRecord(failure) && typeof failure.message === 'string' ? failure.message : 'injected failure (spec.failure.mode Fail)';
}

export function startupSecondsOf(obj: StoredObject): number {
  const seconds = numberAt(obj, 'spec', 'startupSeconds');
  return seconds !== undefined && seconds >= 0 ? seconds : DEFAULT_STARTUP_SECONDS;
}

/** Seconds until the VM is up, measured from creation; 0 when it is. */
export function secondsUntilReady(obj: StoredObject, now: Date, startupSeconds = startupSecondsOf(obj)): number {
  const created = new Date(obj.metadata.creationTimestamp).getTime();
  const readyAt = created + startupSeconds * 1000;
  return Math.max(0, Math.ceil((readyAt - now.getTime()) / 1000));
}

/** A deterministic 10.x.y.z from the machine's identity. */
export function simulatedInternalIP(namespace: string, name: string): string {
  const h = stableHash(`${namespace}/${name}`);
  return `10.${(h >>> 16) & 0xff}.${(h >>> 8) & 0xff}.${(h & 0xfe) + 1}`;
}

export function simulatedAddresses(namespace: string, name: string): MachineAddress[] {
  return [
    { type: 'InternalIP', address: simulatedInternalIP(namespace, name) },
    { type: 'Hostname', address: name },
  ];
}

/**
 * Tests (and demos) make a simulated Node unhealthy with this annotation on the InMemoryMachine:
 * its value is the Node's Ready status to report (`False` or `Unknown`; anything else means False).
 */
export const ANNOTATION_SIMULATE_NODE_UNHEALTHY = 'inmemory.infrastructure.capless.dev/node-unhealthy';

/** The Node's Ready status the InMemoryMachine asks for. */
export function simulatedReadyStatus(obj: StoredObject): 'True' | 'False' | 'Unknown' {
  const value = obj.metadata.annotations?.[ANNOTATION_SIMULATE_NODE_UNHEALTHY];
  if (value === undefined) return 'True';
  return value === 'Unknown' ? 'Unknown' : 'False';
}

/** The previous Ready condition's time carries over while its status holds (as a kubelet reports it). */
function readySince(previous: unknown, status: string, now: string): string {
  const conditions = valueAt(previous, 'conditions');
  if (!Array.isArray(conditions)) return now;
  const ready = conditions.find((c: unknown) => isRecord(c) && c.type === 'Ready');
  return isRecord(ready) && ready.status === status && typeof ready.lastTransitionTime === 'string' ? ready.lastTransitionTime : now;
}

/** How long kubeadm makes a node's kube-apiserver serving certificate valid unless told otherwise (one year). */
export const DEFAULT_CERTIFICATE_VALIDITY_DAYS = 365;

/**
 * The simulated kube-apiserver's serving certificate, on control-plane Nodes only: issued when
 * the Node first appears (as kubeadm issues it before kubelet registers) for `validityDays`
 * (its ClusterConfiguration's certificateValidityPeriodDays); kept from then on.
 */
function apiServerCertificateNotAfter(previous: unknown, now: string, validityDays: number | undefined): string | undefined {
  const kept = valueAt(previous, 'apiServerCertificateNotAfter');
  if (typeof kept === 'string') return kept;
  if (!now || validityDays === undefined) return undefined;
  return `${new Date(Date.parse(now) + validityDays * 86_400_000).toISOString().slice(0, 19)}Z`;
}

export function simulatedNode(
  name: string,
  kubeletVersion: string | undefined,
  health: { status: 'True' | 'False' | 'Unknown'; previous?: unknown; now: string } = { status: 'True', now: '' },
  certificateValidityDays?: number,
) {
  const lastTransitionTime = readySince(health.previous, health.status, health.now);
  const notAfter = apiServerCertificateNotAfter(health.previous, health.now, certificateValidityDays);
  return {
    name,
    ready: health.status === 'True',
    ...(kubeletVersion ? { info: { kubeletVersion } } : {}),
    ...(health.now ? { conditions: [{ type: 'Ready', status: health.status, lastTransitionTime }] } : {}),
    ...(notAfter ? { apiServerCertificateNotAfter: notAfter } : {}),
  };
}

export function machineVersionOf(machine: StoredObject | undefined): string | undefined {
  return machine ? stringAt(machine, 'spec', 'version') : undefined;
}
