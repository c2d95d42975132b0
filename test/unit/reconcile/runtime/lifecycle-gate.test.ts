/** The lifecycle gate against a fake Cluster and a scripted HookClient: each point, its tracking annotations and decisions. */

import { describe, expect, it } from 'vitest';
import { LifecycleGate } from '../../../../functions/reconcile/runtime/lifecycle/gate.js';
import { markDone, markPending, pendingHooks } from '../../../../functions/reconcile/runtime/lifecycle/pending-hooks.js';
import { creationBlockedMessage, deleteBlockedMessage, upgradeBlockedMessage } from '../../../../functions/reconcile/runtime/lifecycle/topology-messages.js';
import type { LifecycleHook } from '../../../../shared/contracts/hooks/index.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import type { HookResult } from '../../../../shared/ports/runtime-extensions.js';
import { blocked, FakeHookClient, failed, PASS } from '../../../support/fake-hook-client.js';

const PENDING = 'runtime.cluster.x-k8s.io/pending-hooks';
const OK_TO_DELETE = 'runtime.cluster.x-k8s.io/ok-to-delete';

function cluster(annotations: Record<string, string> = {}, spec: Record<string, unknown> = { topology: { version: 'v1.34.0' } }): KubeObject {
  return { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1', namespace: 'default', annotations }, spec };
}

const upgrade = { fromKubernetesVersion: 'v1.33.0', toKubernetesVersion: 'v1.34.0', controlPlaneUpgrades: ['v1.34.0'], workersUpgrades: ['v1.34.0'] };

describe('pending-hooks annotation', () => {
  it('is a sorted, comma-separated set', () => {
    const a = markPending({}, 'BeforeWorkersUpgrade', 'AfterControlPlaneUpgrade', 'BeforeWorkersUpgrade');
    expect(a[PENDING]).toBe('AfterControlPlaneUpgrade,BeforeWorkersUpgrade');
    expect(pendingHooks(markDone(a, 'AfterControlPlaneUpgrade'))).toEqual(['BeforeWorkersUpgrade']);
    expect(markDone(a, 'AfterControlPlaneUpgrade', 'BeforeWorkersUpgrade')).toEqual({});
  });
});

describe('LifecycleGate', () => {
  it.each<[string, HookResult, boolean, Record<string, unknown>]>([
    ['passes and marks AfterControlPlaneInitialized pending', PASS, true, { annotations: { [PENDING]: 'AfterControlPlaneInitialized' } }],
    ['blocks for the retry delay', blocked(5, 'not yet'), false, { requeueAfterSeconds: 5, blocking: { hook: 'BeforeClusterCreate', message: 'not yet' }, annotations: {} }],
    ['fails without a requeue, marks kept', failed('denied'), false, { failure: expect.stringContaining('denied'), annotations: {} }],
  ])('BeforeClusterCreate %s', async (_name, answer, proceed, expected) => {
    const hooks = new FakeHookClient(() => answer);
    const decision = await new LifecycleGate(hooks).beforeClusterCreate(cluster());
    expect(decision.proceed).toBe(proceed);
    expect(decision).toMatchObject(expected);
  });

  it('BeforeClusterCreate is not called once the topology has objects', async () => {
    const hooks = new FakeHookClient(() => blocked(5));
    const decision = await new LifecycleGate(hooks).beforeClusterCreate(cluster({}, { infrastructureRef: { name: 'x' } }));
    expect(decision.proceed).toBe(true);
    expect(hooks.calls).toHaveLength(0);
  });

  it.each<[string, Record<string, string>, boolean, HookResult, number, string | undefined]>([
    ['not called before the control plane is initialized', { [PENDING]: 'AfterControlPlaneInitialized' }, false, PASS, 0, 'AfterControlPlaneInitialized'],
    ['not called when not pending', {}, true, PASS, 0, undefined],
    ['called and cleared on success', { [PENDING]: 'AfterControlPlaneInitialized' }, true, PASS, 1, undefined],
    ['kept pending when it fails', { [PENDING]: 'AfterControlPlaneInitialized' }, true, failed(), 1, 'AfterControlPlaneInitialized'],
  ])('AfterControlPlaneInitialized %s', async (_name, annotations, initialized, answer, calls, pendingAfter) => {
    const hooks = new FakeHookClient(() => answer);
    const decision = await new LifecycleGate(hooks).afterControlPlaneInitialized(cluster(annotations), initialized);
    expect(hooks.calls).toHaveLength(calls);
    expect(decision.annotations[PENDING]).toBe(pendingAfter);
  });

  it('BeforeClusterUpgrade passes with the upgrade request and marks AfterClusterUpgrade pending', async () => {
    const hooks = new FakeHookClient(() => PASS);
    const decision = await new LifecycleGate(hooks).beforeClusterUpgrade(cluster(), upgrade);
    expect(decision).toMatchObject({ proceed: true, annotations: { [PENDING]: 'AfterClusterUpgrade' } });
    expect(hooks.calls[0]?.body).toEqual({ fromKubernetesVersion: 'v1.33.0', toKubernetesVersion: 'v1.34.0', controlPlaneUpgrades: [{ version: 'v1.34.0' }], workersUpgrades: [{ version: 'v1.34.0' }] });
  });

  it('BeforeClusterUpgrade is held by a before-upgrade.hook.cluster.cluster.x-k8s.io annotation without calling', async () => {
    const hooks = new FakeHookClient(() => PASS);
    const decision = await new LifecycleGate(hooks).beforeClusterUpgrade(cluster({ 'before-upgrade.hook.cluster.cluster.x-k8s.io/ops': '' }), upgrade);
    expect(decision.proceed).toBe(false);
    expect(decision.blocking?.message).toContain('before-upgrade.hook.cluster.cluster.x-k8s.io/ops');
    expect(hooks.calls).toHaveLength(0);
  });

  it('BeforeClusterUpgrade is not called again once the upgrade started (AfterClusterUpgrade pending)', async () => {
    const hooks = new FakeHookClient(() => blocked(9));
    const decision = await new LifecycleGate(hooks).beforeClusterUpgrade(cluster({ [PENDING]: 'AfterClusterUpgrade' }), upgrade);
    expect(decision.proceed).toBe(true);
    expect(hooks.calls).toHaveLength(0);
  });

  it.each<[boolean, string]>([
    [true, 'AfterControlPlaneUpgrade,AfterWorkersUpgrade,BeforeWorkersUpgrade'],
    [false, 'AfterControlPlaneUpgrade'],
  ])('BeforeControlPlaneUpgrade (workers follow: %s) marks %s', async (workersFollow, pending) => {
    const decision = await new LifecycleGate(new FakeHookClient()).beforeControlPlaneUpgrade(cluster(), upgrade, workersFollow);
    expect(decision.annotations[PENDING]).toBe(pending);
  });

  it.each<[LifecycleHook, (g: LifecycleGate, c: KubeObject) => ReturnType<LifecycleGate['afterClusterUpgrade']>]>([
    ['AfterControlPlaneUpgrade', (g, c) => g.afterControlPlaneUpgrade(c, 'v1.34.0', upgrade)],
    ['BeforeWorkersUpgrade', (g, c) => g.beforeWorkersUpgrade(c, upgrade)],
    ['AfterWorkersUpgrade', (g, c) => g.afterWorkersUpgrade(c, 'v1.34.0', upgrade)],
    ['AfterClusterUpgrade', (g, c) => g.afterClusterUpgrade(c, 'v1.34.0')],
  ])('%s is called only while pending, holds while blocked and is cleared on success', async (hook, point) => {
    const idle = new FakeHookClient();
    expect((await point(new LifecycleGate(idle), cluster())).proceed).toBe(true);
    expect(idle.calls).toHaveLength(0);
    const pending = cluster({ [PENDING]: `${hook},Other` });
    const held = await point(new LifecycleGate(new FakeHookClient(() => blocked(7))), pending);
    expect(held).toMatchObject({ proceed: false, requeueAfterSeconds: 7, annotations: { [PENDING]: `${hook},Other` } });
    const passed = await point(new LifecycleGate(new FakeHookClient()), pending);
    expect(passed).toMatchObject({ proceed: true, annotations: { [PENDING]: 'Other' } });
  });

  it.each<[string, Record<string, string>, HookResult, boolean, number]>([
    ['passes and sets ok-to-delete', {}, PASS, true, 1],
    ['blocks deletion', {}, blocked(30), false, 1],
    ['fails: deletion waits', {}, failed(), false, 1],
    ['is not called again once ok-to-delete is set', { [OK_TO_DELETE]: '' }, blocked(30), true, 0],
  ])('BeforeClusterDelete %s', async (_name, annotations, answer, proceed, calls) => {
    const hooks = new FakeHookClient(() => answer);
    const decision = await new LifecycleGate(hooks).beforeClusterDelete(cluster(annotations));
    expect(decision.proceed).toBe(proceed);
    expect(hooks.calls).toHaveLength(calls);
    expect(OK_TO_DELETE in decision.annotations).toBe(proceed);
  });
});

describe('TopologyReconciled messages', () => {
  it.each([
    [creationBlockedMessage, 'Following hooks are blocking Cluster topology creation: BeforeClusterCreate: wait'],
    [upgradeBlockedMessage, 'Following hooks are blocking upgrade: BeforeClusterCreate: wait'],
    [deleteBlockedMessage, 'Cluster is deleting. Following hooks are blocking delete: BeforeClusterCreate: wait'],
  ])('%#', (build, message) => {
    expect(build([{ hook: 'BeforeClusterCreate', message: 'wait' }])).toBe(message);
  });
});
