/**
 * Property: no sequence of extension answers makes an upgrade skip a blocking hook. A model
 * upgrade (v1.33.0 → v1.34.0, one control plane step, workers following) is driven through the
 * lifecycle gate with random answers (pass, block, fail) for every hook call; the control plane
 * and the workers move instantly whenever the gate lets them. Whatever the answers:
 * - the control plane moves only right after BeforeClusterUpgrade and BeforeControlPlaneUpgrade passed;
 * - workers move only after AfterControlPlaneUpgrade and BeforeWorkersUpgrade passed for that step;
 * - AfterClusterUpgrade is called only after AfterWorkersUpgrade passed;
 * - once the answers run out (then every hook passes), every hook of the sequence has passed.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { desiredControlPlaneVersion } from '../../../../functions/reconcile/runtime/lifecycle/control-plane-version.js';
import { applyDecision, LifecycleGate } from '../../../../functions/reconcile/runtime/lifecycle/gate.js';
import { isPending } from '../../../../functions/reconcile/runtime/lifecycle/pending-hooks.js';
import type { LifecycleHook } from '../../../../shared/contracts/hooks/index.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import type { HookResult } from '../../../../shared/ports/runtime-extensions.js';
import { blocked, FakeHookClient, failed, PASS } from '../../../support/fake-hook-client.js';

const FROM = 'v1.33.0';
const TO = 'v1.34.0';

type Event = { type: 'call'; hook: LifecycleHook; passed: boolean } | { type: 'cp-moved' } | { type: 'workers-moved' };

const answer: fc.Arbitrary<HookResult> = fc.oneof(
  fc.constant(PASS),
  fc.integer({ min: 1, max: 600 }).map((s) => blocked(s)),
  fc.constant(failed()),
);

async function runUpgrade(answers: readonly HookResult[]): Promise<{ events: Event[]; cp: string; workers: string }> {
  const hooks = new FakeHookClient((_hook, index) => answers[index] ?? PASS);
  const gate = new LifecycleGate(hooks);
  let cluster: KubeObject = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1', namespace: 'default' }, spec: { topology: { version: TO } } };
  let cp = FROM;
  let workers = FROM;
  const events: Event[] = [];
  const record = (from: number) => {
    for (const call of hooks.calls.slice(from)) events.push({ type: 'call', hook: call.hook, passed: call.result.status === 'Success' });
  };
  for (let reconcile = 0; reconcile < answers.length + 20; reconcile++) {
    const before = hooks.calls.length;
    const decision = await desiredControlPlaneVersion(gate, {
      cluster,
      topologyVersion: TO,
      controlPlane: { version: cp, provisioningOrUpgrading: false },
      minWorkerVersion: workers,
      workersUpgrading: false,
      controlPlaneUpgradePlan: cp === TO ? [] : [TO],
      workersUpgradePlan: workers === TO ? [] : [TO],
    });
    cluster = applyDecision(cluster, decision);
    record(before);
    if (decision.version !== cp) {
      cp = decision.version;
      events.push({ type: 'cp-moved' });
    }
    const a = cluster.metadata.annotations;
    if (cp === TO && workers !== TO && !isPending(a, 'AfterControlPlaneUpgrade') && !isPending(a, 'BeforeWorkersUpgrade')) {
      workers = TO;
      events.push({ type: 'workers-moved' });
    }
    if (cp === TO && workers === TO && !isPending(a, 'AfterControlPlaneUpgrade') && !isPending(a, 'BeforeWorkersUpgrade') && !isPending(a, 'AfterWorkersUpgrade')) {
      const afterBefore = hooks.calls.length;
      cluster = applyDecision(cluster, await gate.afterClusterUpgrade(cluster, TO));
      record(afterBefore);
    }
  }
  return { events, cp, workers };
}

function passedBefore(events: readonly Event[], index: number, hook: LifecycleHook, since = 0): boolean {
  return events.slice(since, index).some((e) => e.type === 'call' && e.hook === hook && e.passed);
}

describe('an upgrade cannot skip a blocking hook', () => {
  it('whatever the extensions answer', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(answer, { maxLength: 40 }), async (answers) => {
        const { events, cp, workers } = await runUpgrade(answers);
        const cpMoved = events.findIndex((e) => e.type === 'cp-moved');
        const workersMoved = events.findIndex((e) => e.type === 'workers-moved');
        if (cpMoved >= 0) {
          const last = events[cpMoved - 1];
          expect(last).toEqual({ type: 'call', hook: 'BeforeControlPlaneUpgrade', passed: true });
          expect(passedBefore(events, cpMoved, 'BeforeClusterUpgrade')).toBe(true);
        }
        if (workersMoved >= 0) {
          expect(cpMoved).toBeGreaterThanOrEqual(0);
          expect(passedBefore(events, workersMoved, 'AfterControlPlaneUpgrade', cpMoved)).toBe(true);
          expect(passedBefore(events, workersMoved, 'BeforeWorkersUpgrade', cpMoved)).toBe(true);
        }
        events.forEach((e, i) => {
          if (e.type === 'call' && e.hook === 'AfterClusterUpgrade') expect(passedBefore(events, i, 'AfterWorkersUpgrade')).toBe(true);
        });
        // The answers ran out, every later call passed: the upgrade completed with every hook passed once.
        expect([cp, workers]).toEqual([TO, TO]);
        for (const hook of ['BeforeClusterUpgrade', 'BeforeControlPlaneUpgrade', 'AfterControlPlaneUpgrade', 'BeforeWorkersUpgrade', 'AfterWorkersUpgrade', 'AfterClusterUpgrade'] as const) {
          expect(passedBefore(events, events.length, hook)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
