/**
 * A deleted Machine deletes its Node from the workload cluster after its infrastructure
 * (Cluster API's isDeleteNodeAllowed and deleteNode): not while the Cluster or its control plane is
 * deleted, not when no control-plane Machine would remain, and a workload API that does not answer
 * holds the Machine only until nodeDeletionTimeoutSeconds has passed.
 */

import { describe, expect, it } from 'vitest';
import { machineReconciler } from '../../../../functions/reconcile/core/machine/reconciler.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import { type WorkloadCluster, WorkloadClusterUnavailableError } from '../../../../shared/ports/workload-cluster.js';
import { testContext } from '../../../support/reconcile-context.js';
import { workloadClusterStub } from '../../../support/workload-cluster-stub.js';

const CORE = 'cluster.x-k8s.io';
const FINALIZER = 'machine.cluster.x-k8s.io';
const KEY = { group: CORE, kind: 'Machine', namespace: 'default', name: 'w1' };

function machine(name: string, controlPlane: boolean, deletion: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: `${CORE}/v1beta2`,
    kind: 'Machine',
    metadata: { name, namespace: 'default', finalizers: [FINALIZER], labels: { 'cluster.x-k8s.io/cluster-name': 'c1', ...(controlPlane ? { 'cluster.x-k8s.io/control-plane': '' } : {}) } },
    spec: { clusterName: 'c1', bootstrap: { dataSecretName: 's' }, deletion },
  };
}

interface Shape {
  clusterDeleting?: boolean;
  controlPlaneMachine?: 'active' | 'none';
  failures?: number;
  deletion?: Record<string, unknown>;
  workerIsControlPlane?: boolean;
}

async function setup(shape: Shape) {
  const deleted: string[] = [];
  let failures = shape.failures ?? 0;
  const workloadCluster: WorkloadCluster = workloadClusterStub({
    deleteNode: async (_cluster, name) => {
      if (failures > 0) {
        failures--;
        throw new WorkloadClusterUnavailableError('ConnectionDown', 'ECONNREFUSED');
      }
      deleted.push(name);
    },
  });
  const ctx = testContext({ providers: { workloadCluster } });
  await ctx.store.create({ apiVersion: `${CORE}/v1beta2`, kind: 'Cluster', metadata: { name: 'c1', namespace: 'default', ...(shape.clusterDeleting ? { finalizers: ['keep'] } : {}) }, spec: {} });
  if (shape.clusterDeleting) await ctx.store.delete({ group: CORE, kind: 'Cluster', namespace: 'default', name: 'c1' });
  if (shape.controlPlaneMachine !== 'none') await ctx.store.create(machine('cp1', true));
  const created = await ctx.store.create(machine('w1', shape.workerIsControlPlane === true, shape.deletion));
  await ctx.store.updateStatus({ ...created, status: { nodeRef: { name: 'ip-10-0-0-7' } } });
  await ctx.store.delete(KEY);
  return { ctx, deleted };
}

describe('a deleted Machine and its Node', () => {
  it.each<[string, Shape, string[]]>([
    ['a worker: its Node is deleted, then the Machine goes', {}, ['ip-10-0-0-7']],
    ['the Cluster is being deleted: the Node goes with the cluster', { clusterDeleting: true }, []],
    ['no control-plane Machine would remain: the Node stays', { controlPlaneMachine: 'none', workerIsControlPlane: true }, []],
    ['one of several control-plane Machines: its Node is deleted', { workerIsControlPlane: true }, ['ip-10-0-0-7']],
  ])('%s', async (_case, shape, expected) => {
    const { ctx, deleted } = await setup(shape);
    await runReconcile(machineReconciler, ctx, KEY);
    expect(deleted).toEqual(expected);
    expect(await ctx.store.get(KEY)).toBeUndefined();
  });

  it('an unreachable workload API holds the Machine, retried every 2 s, until nodeDeletionTimeoutSeconds (10 s by default) has passed', async () => {
    const { ctx, deleted } = await setup({ failures: 100 });
    const first = await runReconcile(machineReconciler, ctx, KEY);
    expect(first.requeueAfterSeconds).toBe(2);
    const held = await ctx.store.get(KEY);
    expect(held?.status?.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'Deleting', reason: 'DeletingNode', message: expect.stringContaining('ECONNREFUSED') })]));
    ctx.clock.advanceSeconds(11);
    await runReconcile(machineReconciler, ctx, KEY);
    expect(deleted).toEqual([]);
    expect(await ctx.store.get(KEY)).toBeUndefined();
  });

  it('a Node deletion that succeeds on a retry lets the Machine go', async () => {
    const { ctx, deleted } = await setup({ failures: 1 });
    expect((await runReconcile(machineReconciler, ctx, KEY)).requeueAfterSeconds).toBe(2);
    ctx.clock.advanceSeconds(2);
    await runReconcile(machineReconciler, ctx, KEY);
    expect(deleted).toEqual(['ip-10-0-0-7']);
    expect(await ctx.store.get(KEY)).toBeUndefined();
  });

  it('nodeDeletionTimeoutSeconds 0 waits for the Node for ever', async () => {
    const { ctx } = await setup({ failures: 100, deletion: { nodeDeletionTimeoutSeconds: 0 } });
    ctx.clock.advanceSeconds(3600);
    expect((await runReconcile(machineReconciler, ctx, KEY)).requeueAfterSeconds).toBe(2);
    expect(await ctx.store.get(KEY)).toBeDefined();
  });
});
