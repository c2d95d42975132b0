/**
 * Property: no sequence of extension answers makes a topology upgrade skip a blocking hook. The
 * topology reconciler's upgrade decision (decideUpgradeWithHooks, the code the Cluster reconciler
 * runs) is driven over a model cluster (one control plane, two MachineDeployments) upgrading
 * v1.33.0 → v1.34.0, with random answers (pass, block, fail) for every hook call. The model obeys
 * each decision as the reconciler applies it: a Failure writes nothing; otherwise the pending
 * marks are stored, the control plane takes its decided version (and finishes its rollout before
 * the next reconcile), MachineDeployments not held take theirs. Whatever the answers:
 * - the control plane moves only in a reconcile whose last hook was a passing
 *   BeforeControlPlaneUpgrade, after BeforeClusterUpgrade passed;
 * - no MachineDeployment moves before AfterControlPlaneUpgrade and BeforeWorkersUpgrade passed
 *   after the control plane moved;
 * - AfterWorkersUpgrade is called only once every MachineDeployment runs the new version, and
 *   AfterClusterUpgrade only after AfterWorkersUpgrade passed;
 * - once the answers run out (then every hook passes) the upgrade is complete, every hook of the
 *   sequence passed, nothing is left pending.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CurrentState } from '../../../functions/reconcile/topology/cluster/current-state.js';
import { type LifecycleHook, type LifecycleHookAnswer, LifecycleHookFailed } from '../../../functions/reconcile/topology/cluster/lifecycle-hooks.js';
import { withPendingHook } from '../../../functions/reconcile/topology/cluster/pending-hooks.js';
import { readTopology } from '../../../functions/reconcile/topology/cluster/topology-spec.js';
import { decideUpgradeWithHooks } from '../../../functions/reconcile/topology/cluster/upgrade-hooks.js';
import type { StoredObject } from '../../../shared/contracts/object.js';

const FROM = 'v1.33.0';
const TO = 'v1.34.0';
const MDS = ['md-0', 'md-1'];
const PENDING = 'runtime.cluster.x-k8s.io/pending-hooks';

type Answer = 'pass' | 'fail' | number;
type Event = { type: 'call'; hook: LifecycleHook; passed: boolean } | { type: 'cp-moved' } | { type: 'md-moved'; name: string; others: string[] };

const answer: fc.Arbitrary<Answer> = fc.oneof(fc.constant<Answer>('pass'), fc.constant<Answer>('fail'), fc.integer({ min: 1, max: 600 }));

function object(kind: string, name: string, spec: Record<string, unknown>, status: Record<string, unknown> = {}, annotations: Record<string, string> = {}): StoredObject {
  return {
    apiVersion: kind === 'KubeadmControlPlane' ? 'controlplane.cluster.x-k8s.io/v1beta2' : 'cluster.x-k8s.io/v1beta2',
    kind,
    metadata: { name, namespace: 'ns', uid: name, resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z', labels: { 'cluster.x-k8s.io/cluster-name': 'c1' }, annotations },
    spec,
    status,
  };
}

const topologySpec = { classRef: { name: 'cc' }, version: TO, workers: { machineDeployments: MDS.map((name) => ({ name, class: 'a' })) } };

async function runUpgrade(answers: readonly Answer[]): Promise<{ events: Event[]; cp: string; workers: string[]; pending: string | undefined }> {
  let annotations: Record<string, string> = {};
  let cp = FROM;
  const workers = new Map(MDS.map((name) => [name, FROM]));
  const events: Event[] = [];
  let calls = 0;
  const hooks = {
    call: async (request: { hook: LifecycleHook }): Promise<LifecycleHookAnswer> => {
      const next = answers[calls++] ?? 'pass';
      // AfterClusterUpgrade does not block: any answer but a Failure lets it pass.
      events.push({ type: 'call', hook: request.hook, passed: next === 'pass' || (request.hook === 'AfterClusterUpgrade' && next !== 'fail') });
      if (next === 'fail') throw new LifecycleHookFailed(request.hook, 'refused');
      return { retryAfterSeconds: next === 'pass' ? 0 : next, message: 'wait' };
    },
  };
  for (let reconcile = 0; reconcile < answers.length + 12; reconcile++) {
    const cluster = object('Cluster', 'c1', { topology: topologySpec }, {}, annotations);
    const topology = readTopology(cluster);
    if (!topology) throw new Error('topology does not parse');
    const current: CurrentState = {
      // The control plane finished rolling to its spec version before this reconcile.
      controlPlane: object('KubeadmControlPlane', 'cp', { version: cp }, { version: cp }),
      machineDeployments: new Map(MDS.map((name) => [name, { object: object('MachineDeployment', `c1-${name}`, { template: { spec: { version: workers.get(name) } } }) }])),
      machines: [],
      machineSets: [],
    };
    let upgrade: Awaited<ReturnType<typeof decideUpgradeWithHooks>>;
    try {
      upgrade = await decideUpgradeWithHooks({ hooks, cluster, topology, current, pendingAnnotations: annotations });
    } catch (error) {
      if (error instanceof LifecycleHookFailed) continue; // Nothing is written.
      throw error;
    }
    for (const [hook, pending] of upgrade.hookMarks) annotations = withPendingHook(annotations, hook, pending) ?? {};
    if (upgrade.decision.controlPlaneVersion !== cp) {
      cp = upgrade.decision.controlPlaneVersion;
      events.push({ type: 'cp-moved' });
    }
    const held = new Set([...upgrade.decision.pendingUpgrade, ...upgrade.decision.deferred, ...upgrade.decision.pendingCreate]);
    for (const name of MDS) {
      const version = upgrade.decision.machineDeploymentVersions.get(name);
      if (held.has(name) || version === undefined || version === workers.get(name)) continue;
      workers.set(name, version);
      events.push({ type: 'md-moved', name, others: MDS.filter((n) => n !== name).map((n) => workers.get(n) ?? '') });
    }
  }
  return { events, cp, workers: [...workers.values()], pending: annotations[PENDING] };
}

function passedBetween(events: readonly Event[], from: number, to: number, hook: LifecycleHook): boolean {
  return events.slice(from, to).some((e) => e.type === 'call' && e.hook === hook && e.passed);
}

const SEQUENCE: LifecycleHook[] = ['BeforeClusterUpgrade', 'BeforeControlPlaneUpgrade', 'AfterControlPlaneUpgrade', 'BeforeWorkersUpgrade', 'AfterWorkersUpgrade', 'AfterClusterUpgrade'];

describe('a topology upgrade cannot skip a blocking hook', () => {
  it('whatever the extensions answer', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(answer, { maxLength: 40 }), async (answers) => {
        const { events, cp, workers, pending } = await runUpgrade(answers);
        const cpMoved = events.findIndex((e) => e.type === 'cp-moved');
        if (cpMoved >= 0) {
          expect(events[cpMoved - 1]).toEqual({ type: 'call', hook: 'BeforeControlPlaneUpgrade', passed: true });
          expect(passedBetween(events, 0, cpMoved, 'BeforeClusterUpgrade')).toBe(true);
        }
        events.forEach((e, i) => {
          if (e.type === 'md-moved') {
            expect(cpMoved).toBeGreaterThanOrEqual(0);
            expect(cpMoved).toBeLessThan(i);
            expect(passedBetween(events, cpMoved, i, 'AfterControlPlaneUpgrade')).toBe(true);
            expect(passedBetween(events, cpMoved, i, 'BeforeWorkersUpgrade')).toBe(true);
          }
          if (e.type === 'call' && e.hook === 'AfterWorkersUpgrade') {
            const moved = events.slice(0, i).filter((m) => m.type === 'md-moved');
            expect(moved.map((m) => (m.type === 'md-moved' ? m.name : '')).sort()).toEqual(MDS);
          }
          if (e.type === 'call' && e.hook === 'AfterClusterUpgrade') expect(passedBetween(events, 0, i, 'AfterWorkersUpgrade')).toBe(true);
        });
        // The answers ran out and every later call passed: the upgrade completed with every hook passed.
        expect([cp, ...workers]).toEqual([TO, TO, TO]);
        for (const hook of SEQUENCE) expect(passedBetween(events, 0, events.length, hook)).toBe(true);
        expect(pending).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });
});
