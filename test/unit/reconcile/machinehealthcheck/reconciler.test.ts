import { describe, expect, it } from 'vitest';
import { machineHealthCheckReconciler } from '../../../../functions/reconcile/core/machinehealthcheck/reconciler.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { admitCreate, admitUpdate } from '../../../../shared/contracts/admission/admit.js';
import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import { defaultKinds } from '../../../../shared/contracts/kinds.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import { InvalidError } from '../../../../shared/errors/index.js';
import { WORKLOAD_CLUSTER_PORT, type WorkloadCluster } from '../../../../shared/ports/workload-cluster.js';
import { testContext } from '../../../support/reconcile-context.js';
import { workloadClusterStub } from '../../../support/workload-cluster-stub.js';

const CORE = 'cluster.x-k8s.io';
const mhcKey = { group: CORE, kind: 'MachineHealthCheck', namespace: 'default', name: 'workers' };

/** Nodes by providerID; every one reports Ready=False since long ago unless listed healthy. */
function workload(healthy: readonly string[]): WorkloadCluster {
  return workloadClusterStub({
    async findNodeByProviderID(_cluster, providerID) {
      const ok = healthy.includes(providerID);
      return { name: providerID, ready: ok, conditions: [{ type: 'Ready', status: ok ? 'True' : 'False', lastTransitionTime: '2025-01-01T00:00:00Z' }] };
    },
  });
}

function machine(name: string, cluster: string, role: string): KubeObject {
  return {
    apiVersion: `${CORE}/v1beta2`,
    kind: 'Machine',
    metadata: { name, labels: { 'cluster.x-k8s.io/cluster-name': cluster, role } },
    spec: { clusterName: cluster, providerID: `p://${name}`, bootstrap: { dataSecretName: 's' }, infrastructureRef: { apiGroup: 'x', kind: 'Y', name } },
    status: { nodeRef: { name } },
  };
}

function mhc(selector: Record<string, unknown>, remediation?: Record<string, unknown>): KubeObject {
  return {
    apiVersion: `${CORE}/v1beta2`,
    kind: 'MachineHealthCheck',
    metadata: { name: 'workers' },
    spec: {
      clusterName: 'c1',
      selector,
      checks: { unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 60 }] },
      ...(remediation ? { remediation } : {}),
    },
  };
}

async function scenario(check: KubeObject, healthy: readonly string[], annotations: Record<string, Record<string, string>> = {}) {
  const ctx = testContext({ providers: { [WORKLOAD_CLUSTER_PORT]: workload(healthy) } });
  for (const m of [machine('w1', 'c1', 'worker'), machine('w2', 'c1', 'worker'), machine('cp1', 'c1', 'cp'), machine('other', 'c2', 'worker')]) {
    const created = await ctx.store.create({ ...m, metadata: { ...m.metadata, annotations: annotations[m.metadata.name] ?? {} } });
    await ctx.store.updateStatus({ ...created, status: m.status ?? {} });
  }
  await ctx.store.create(check);
  await runReconcile(machineHealthCheckReconciler, ctx, mhcKey);
  const marks: Record<string, string | undefined> = {};
  const conditions: Record<string, ReturnType<typeof conditionsOf>> = {};
  for (const name of ['w1', 'w2', 'cp1', 'other']) {
    const stored = await ctx.store.get({ group: CORE, kind: 'Machine', namespace: 'default', name });
    conditions[name] = conditionsOf(stored?.status);
    marks[name] = [findCondition(conditions[name], 'HealthCheckSucceeded')?.status, findCondition(conditions[name], 'OwnerRemediated')?.status].join('/');
  }
  return { marks, conditions, mhc: await ctx.store.get(mhcKey) };
}

describe('MachineHealthCheck reconcile: which Machines it marks', () => {
  it.each<[string, KubeObject, string[], Record<string, string>, Record<string, number>, Record<string, Record<string, string>>?]>([
    [
      'its own cluster’s workers only, never another cluster’s Machine with the same labels',
      mhc({ matchLabels: { role: 'worker' } }),
      ['p://w1'],
      { w1: 'True/', w2: 'False/False', cp1: '/', other: '/' },
      { expectedMachines: 2, currentHealthy: 1, remediationsAllowed: 1 },
    ],
    [
      'a selector that matches nothing marks nothing',
      mhc({ matchLabels: { role: 'gpu' } }),
      [],
      { w1: '/', w2: '/', cp1: '/', other: '/' },
      { expectedMachines: 0, currentHealthy: 0, remediationsAllowed: 0 },
    ],
    [
      'too many unhealthy: marked unhealthy, not handed to the owner',
      mhc({ matchLabels: { role: 'worker' } }, { triggerIf: { unhealthyLessThanOrEqualTo: 1 } }),
      [],
      { w1: 'False/', w2: 'False/', cp1: '/', other: '/' },
      { expectedMachines: 2, currentHealthy: 0, remediationsAllowed: 0 },
    ],
    [
      'a Machine with the skip-remediation annotation is no target: not checked, counted or remediated',
      mhc({ matchLabels: { role: 'worker' } }),
      ['p://w1'],
      { w1: 'True/', w2: '/', cp1: '/', other: '/' },
      { expectedMachines: 1, currentHealthy: 1, remediationsAllowed: 1 },
      { w2: { 'cluster.x-k8s.io/skip-remediation': '' } },
    ],
    [
      'nor is a paused Machine',
      mhc({ matchLabels: { role: 'worker' } }),
      ['p://w1'],
      { w1: 'True/', w2: '/', cp1: '/', other: '/' },
      { expectedMachines: 1, currentHealthy: 1, remediationsAllowed: 1 },
      { w2: { 'cluster.x-k8s.io/paused': '' } },
    ],
  ])('%s', async (_name, check, healthy, marks, counts, annotations) => {
    const result = await scenario(check, healthy, annotations);
    expect(result.marks).toEqual(marks);
    expect(result.mhc?.status).toMatchObject(counts);
  });

  it('says why remediation stops when too many are unhealthy', async () => {
    const { mhc: stored } = await scenario(mhc({ matchLabels: { role: 'worker' } }, { triggerIf: { unhealthyInRange: '[0-1]' } }), []);
    const condition = findCondition(conditionsOf(stored?.status), 'RemediationAllowed');
    expect(condition).toMatchObject({ status: 'False', reason: 'TooManyUnhealthy' });
    expect(condition?.message).toMatch(/does not fall within the range/);
  });
});

describe('MachineHealthCheck admission', () => {
  const ctx = { kinds: defaultKinds, isServedKind: () => true };
  const fieldsOf = (run: () => unknown): string[] => {
    try {
      run();
    } catch (error) {
      if (error instanceof InvalidError) return error.causes.map((c) => c.field ?? '');
      throw error;
    }
    return [];
  };

  it.each<[string, KubeObject, string]>([
    ['an empty selector', mhc({}), 'spec.selector'],
    ['a nodeStartupTimeout under 30 s', { ...mhc({ matchLabels: { a: 'b' } }), spec: { clusterName: 'c1', selector: { matchLabels: { a: 'b' } }, checks: { nodeStartupTimeoutSeconds: 10 } } }, 'spec.checks.nodeStartupTimeoutSeconds'],
    ['a malformed unhealthyInRange', mhc({ matchLabels: { a: 'b' } }, { triggerIf: { unhealthyInRange: '1-3' } }), 'spec.remediation.triggerIf.unhealthyInRange'],
    ['an unhealthyInRange with min over max', mhc({ matchLabels: { a: 'b' } }, { triggerIf: { unhealthyInRange: '[3-1]' } }), 'spec.remediation.triggerIf.unhealthyInRange'],
  ])('refuses %s', (_name, object, field) => {
    expect(fieldsOf(() => admitCreate(object, ctx))).toContain(field);
  });

  it('keeps clusterName immutable', () => {
    const old = { ...admitCreate(mhc({ matchLabels: { a: 'b' } }), ctx), metadata: { name: 'workers', namespace: 'default', uid: 'u', resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' } };
    const changed = { ...old, spec: { ...old.spec, clusterName: 'c2' } };
    expect(fieldsOf(() => admitUpdate(changed, old, ctx))).toEqual(['spec.clusterName']);
  });
});

describe('MachineHealthCheck with a remediation template', () => {
  const template: KubeObject = {
    apiVersion: 'remediation.example.com/v1',
    kind: 'RebootRemediationTemplate',
    metadata: { name: 'reboot' },
    spec: { template: { spec: { strategy: 'Reboot' } } },
  };
  const templated = mhc({ matchLabels: { role: 'worker' } }, { templateRef: { apiVersion: 'remediation.example.com/v1', kind: 'RebootRemediationTemplate', name: 'reboot' } });
  const requestKey = (name: string) => ({ group: 'remediation.example.com', kind: 'RebootRemediation', namespace: 'default', name });

  it('asks for external remediation instead of the owner, and withdraws it once the Machine is healthy', async () => {
    let healthy: string[] = ['p://w1'];
    const ctx = testContext({ providers: { [WORKLOAD_CLUSTER_PORT]: workloadClusterStub({ findNodeByProviderID: (c, id) => workload(healthy).findNodeByProviderID(c, id) }) } });
    for (const m of [machine('w1', 'c1', 'worker'), machine('w2', 'c1', 'worker')]) {
      const created = await ctx.store.create(m);
      await ctx.store.updateStatus({ ...created, status: m.status ?? {} });
    }
    await ctx.store.create(template);
    await ctx.store.create(templated);
    await runReconcile(machineHealthCheckReconciler, ctx, mhcKey);

    const request = await ctx.store.get(requestKey('w2'));
    expect(request?.spec).toEqual({ strategy: 'Reboot' });
    expect(request?.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Machine', name: 'w2' });
    expect(await ctx.store.get(requestKey('w1'))).toBeUndefined();
    const w2 = conditionsOf((await ctx.store.get({ group: CORE, kind: 'Machine', namespace: 'default', name: 'w2' }))?.status);
    expect(findCondition(w2, 'ExternallyRemediated')).toMatchObject({ status: 'False', reason: 'WaitingForRemediation' });
    expect(findCondition(w2, 'OwnerRemediated')).toBeUndefined();

    healthy = ['p://w1', 'p://w2'];
    await runReconcile(machineHealthCheckReconciler, ctx, mhcKey);
    expect(await ctx.store.get(requestKey('w2'))).toBeUndefined();
    const healed = conditionsOf((await ctx.store.get({ group: CORE, kind: 'Machine', namespace: 'default', name: 'w2' }))?.status);
    expect(findCondition(healed, 'ExternallyRemediated')).toBeUndefined();
    expect(findCondition(healed, 'HealthCheckSucceeded')?.status).toBe('True');
  });

  it('says so on the Machine when the template is missing', async () => {
    const { marks, conditions } = await scenario(templated, ['p://w1']);
    expect(marks.w2).toBe('False/');
    expect(findCondition(conditions.w2, 'ExternallyRemediated')).toMatchObject({ status: 'False', reason: 'RemediationTemplateNotFound' });
  });
});
