import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { ReconcilerRegistry } from '../../../../functions/reconcile/engine/registry.js';
import { routeChange } from '../../../../functions/reconcile/router/route-change.js';
import { keyString, type StoredObject } from '../../../../shared/contracts/object.js';
import type { ObjectChange } from '../../../../shared/ports/object-store.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';

/**
 * Which writes of a Machine wake the MachineHealthChecks of its cluster, through the built-in
 * registry: what the health rules read (any condition's status and how long it has held, the
 * nodeRef, the providerID, labels for the selector, the remediation annotations, deletion) does;
 * a condition's reason or message alone does not. Until a health check has marked the Machine
 * evaluated, only its creation, removal and labels do.
 */
const CORE = 'cluster.x-k8s.io';
const T = '2026-01-01T00:00:00Z';
const LATER = '2026-01-01T00:05:00Z';
const registry = new ReconcilerRegistry(builtinProviderRegistry().reconcilers());
const mhcKey = keyString({ group: CORE, kind: 'MachineHealthCheck', namespace: 'ns', name: 'mhc' });

type Condition = { type: string; status: string; reason: string; message?: string; lastTransitionTime?: string };
const condition = (type: string, status: string, reason: string, more: Partial<Condition> = {}): Condition => ({ type, status, reason, ...more });

function machine(edit: { conditions?: Condition[]; status?: Record<string, unknown>; spec?: Record<string, unknown>; metadata?: Partial<StoredObject['metadata']> } = {}): StoredObject {
  return {
    apiVersion: `${CORE}/v1beta2`,
    kind: 'Machine',
    metadata: { name: 'm', namespace: 'ns', uid: 'm-uid', resourceVersion: '1', generation: 1, creationTimestamp: T, labels: { [`${CORE}/cluster-name`]: 'c1' }, ...edit.metadata },
    spec: { clusterName: 'c1', ...edit.spec },
    status: { ...edit.status, conditions: (edit.conditions ?? []).map((c) => ({ lastTransitionTime: T, ...c })) },
  };
}

/** A Machine the health check has evaluated: it carries HealthCheckSucceeded (ADR 0145). */
const evaluated = condition('HealthCheckSucceeded', 'True', 'Succeeded');
const comingUp = [
  condition('Ready', 'False', 'NotReady'),
  condition('BootstrapConfigReady', 'False', 'DataSecretNotCreated'),
  condition('NodeHealthy', 'Unknown', 'ClusterDoesNotExist'),
  evaluated,
];
const replace = (c: Condition) => [...comingUp.filter((p) => p.type !== c.type), c];

async function woken(change: ObjectChange): Promise<boolean> {
  return (await routeChange(change, registry, await storeWithHealthCheck())).map(keyString).includes(mhcKey);
}

async function storeWithHealthCheck(): Promise<MemoryObjectStore> {
  const store = new MemoryObjectStore();
  await store.create({
    apiVersion: `${CORE}/v1beta2`,
    kind: 'MachineHealthCheck',
    metadata: { name: 'mhc', namespace: 'ns', labels: { [`${CORE}/cluster-name`]: 'c1' } },
    spec: { clusterName: 'c1', selector: {} },
  });
  return store;
}

describe('a MachineHealthCheck is woken by the Machine changes its rules read, not by their wording', () => {
  it.each<[string, boolean, StoredObject]>([
    ['a reason of BootstrapConfigReady (the bootstrap config progressing)', false, machine({ conditions: replace(condition('BootstrapConfigReady', 'False', 'WaitingForCluster')) })],
    ['a reason of NodeHealthy', false, machine({ conditions: replace(condition('NodeHealthy', 'Unknown', 'WaitingForProviderID')) })],
    ['the message of Ready', false, machine({ conditions: replace(condition('Ready', 'False', 'NotReady', { message: 'waiting for the node' })) })],
    ['its phase', false, machine({ conditions: comingUp, status: { phase: 'Provisioned' } })],
    ['Ready turning True', true, machine({ conditions: replace(condition('Ready', 'True', 'Ready', { lastTransitionTime: LATER })) })],
    ['NodeHealthy turning False (the Node went NotReady)', true, machine({ conditions: replace(condition('NodeHealthy', 'False', 'NodeNotReady', { lastTransitionTime: LATER })) })],
    ["a condition of the user's own appearing", true, machine({ conditions: [...comingUp, condition('NetworkReady', 'False', 'Flapping')] })],
    ['a condition going (Ready removed)', true, machine({ conditions: comingUp.slice(1) })],
    ['its nodeRef', true, machine({ conditions: comingUp, status: { nodeRef: { name: 'n1' } } })],
    ['its providerID', true, machine({ conditions: comingUp, spec: { providerID: 'in-memory://ns/m' } })],
    ['a label (the selector)', true, machine({ conditions: comingUp, metadata: { labels: { [`${CORE}/cluster-name`]: 'c1', pool: 'a' } } })],
    ['the remediate-machine annotation', true, machine({ conditions: comingUp, metadata: { annotations: { [`${CORE}/remediate-machine`]: '' } } })],
    ['its deletion', true, machine({ conditions: comingUp, metadata: { deletionTimestamp: T } })],
  ])('%s → woken: %s', async (_name, expected, after) => {
    expect(await woken({ type: 'MODIFY', oldObject: machine({ conditions: comingUp }), newObject: after })).toBe(expected);
  });
});

describe('a Machine no health check has evaluated yet wakes them only when it could become a target (ADR 0145)', () => {
  const unevaluated = comingUp.filter((c) => c !== evaluated);
  const before = machine({ conditions: unevaluated });
  const modify = (after: StoredObject): ObjectChange => ({ type: 'MODIFY', oldObject: before, newObject: after });
  it.each<[string, boolean, ObjectChange]>([
    ['its creation', true, { type: 'INSERT', newObject: before }],
    ['its removal', true, { type: 'REMOVE', oldObject: before }],
    ['a label (the selector may now match)', true, modify(machine({ conditions: unevaluated, metadata: { labels: { [`${CORE}/cluster-name`]: 'c1', pool: 'a' } } }))],
    ['the health check marking it', true, modify(machine({ conditions: [...unevaluated, evaluated] }))],
    ['the mark taken away', true, { type: 'MODIFY', oldObject: machine({ conditions: comingUp }), newObject: before }],
    ['Ready turning True', false, modify(machine({ conditions: [...unevaluated.slice(1), condition('Ready', 'True', 'Ready', { lastTransitionTime: LATER })] }))],
    ['its nodeRef', false, modify(machine({ conditions: unevaluated, status: { nodeRef: { name: 'n1' } } }))],
    ['its providerID', false, modify(machine({ conditions: unevaluated, spec: { providerID: 'in-memory://ns/m' } }))],
    ['the remediate-machine annotation', false, modify(machine({ conditions: unevaluated, metadata: { annotations: { [`${CORE}/remediate-machine`]: '' } } }))],
    ['its deletion', false, modify(machine({ conditions: unevaluated, metadata: { deletionTimestamp: T } }))],
  ])('%s → woken: %s', async (_name, expected, change) => {
    expect(await woken(change)).toBe(expected);
  });
});
