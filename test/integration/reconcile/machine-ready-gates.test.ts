/**
 * A Machine's Ready follows what other controllers write on it (ADR 0173): the condition its
 * `spec.readinessGates` names, and a MachineHealthCheck's `HealthCheckSucceeded`. Each write wakes
 * the Machine through the router's own-change predicate, the production way; nothing re-runs it.
 */

import { afterAll, describe, expect, it } from 'vitest';
import { conditionsOf, findCondition, setCondition } from '../../../shared/contracts/conditions.js';
import type { KubeObject } from '../../../shared/contracts/object.js';
import { bootstrapSecret, clusterObject, infraClusterObject, standaloneMachine } from '../../support/core-fixtures.js';
import { startCoreEventLoop } from '../../support/core-event-loop.js';

const { store, queue, until, stop } = startCoreEventLoop();
afterAll(stop);

const machineKey = { group: 'cluster.x-k8s.io', kind: 'Machine', namespace: 'default', name: 'g1-cp-0' };
const GATE = 'example.com/LoadBalancerAttached';

async function ready(): Promise<{ status?: string; reason?: string; message?: string }> {
  const machine = await store.get(machineKey);
  const found = findCondition(conditionsOf(machine?.status), 'Ready');
  return { status: found?.status, reason: found?.reason, message: found?.message };
}

/** What another controller does: one condition set through the status subresource. */
async function writeCondition(type: string, status: 'True' | 'False', reason: string): Promise<void> {
  const machine = await store.get(machineKey);
  if (!machine) throw new Error('Machine gone');
  const conditions = setCondition(conditionsOf(machine.status), { type, status, reason }, new Date().toISOString());
  await store.updateStatus({ ...machine, status: { ...machine.status, conditions } });
}

function gated(objects: KubeObject[]): KubeObject[] {
  return objects.map((o) => (o.kind === 'Machine' ? { ...o, spec: { ...o.spec, readinessGates: [{ conditionType: GATE }] } } : o));
}

describe('a Machine with a readiness gate', () => {
  it('runs but is not Ready while the gated condition is not reported', async () => {
    for (const obj of [clusterObject('g1'), infraClusterObject('g1'), bootstrapSecret('g1-cp-bootstrap', 'g1'), ...gated(standaloneMachine('g1-cp-0', 'g1', 'g1-cp-bootstrap', 0))]) {
      await store.create(obj);
    }
    expect(await until(async () => (await store.get(machineKey))?.status?.phase === 'Running' && (await ready()).status === 'Unknown')).toBe(true);
    expect(await ready()).toEqual({ status: 'Unknown', reason: 'ReadyUnknown', message: `${GATE}: NotYetReported` });
  });

  it('is Ready once another controller reports the gate True', async () => {
    await writeCondition(GATE, 'True', 'Attached');
    expect(await until(async () => (await ready()).status === 'True')).toBe(true);
  });

  it('is not Ready when the gate turns False, and again Ready when it turns back', async () => {
    await writeCondition(GATE, 'False', 'Detached');
    expect(await until(async () => (await ready()).status === 'False')).toBe(true);
    expect((await ready()).message).toBe(`${GATE}: Detached`);
    await writeCondition(GATE, 'True', 'Attached');
    expect(await until(async () => (await ready()).status === 'True')).toBe(true);
  });

  it('is not Ready while a MachineHealthCheck says it failed its checks', async () => {
    await writeCondition('HealthCheckSucceeded', 'False', 'UnhealthyNode');
    expect(await until(async () => (await ready()).status === 'False')).toBe(true);
    expect((await ready()).message).toBe('HealthCheckSucceeded: UnhealthyNode');
    expect(queue.deadLetters).toEqual([]);
  });
});
