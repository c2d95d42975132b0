import { describe, expect, it } from 'vitest';
import { machineSetReconciler } from '../../../../functions/reconcile/core/machineset/reconciler.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import { clusterObject, workerTemplates } from '../../../support/core-fixtures.js';
import { FAKE_BOOTSTRAP_GROUP } from '../../../support/fake-bootstrap-provider.js';
import { testContext } from '../../../support/reconcile-context.js';

const key = { group: 'cluster.x-k8s.io', kind: 'MachineSet', namespace: 'default', name: 'ms' };

function machineSet(replicas: number): KubeObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineSet',
    metadata: { name: 'ms', namespace: 'default' },
    spec: {
      clusterName: 'c1',
      replicas,
      selector: { matchLabels: { pool: 'a' } },
      template: {
        metadata: { labels: { pool: 'a' } },
        spec: {
          clusterName: 'c1',
          version: 'v1.31.0',
          bootstrap: { configRef: { apiGroup: FAKE_BOOTSTRAP_GROUP, kind: 'FakeBootstrapConfigTemplate', name: 'md' } },
          infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachineTemplate', name: 'md' },
        },
      },
    },
  };
}

/**
 * Found by the cluster-lifecycle scenario: during Cluster deletion a MachineSet saw its worker
 * Machine deleting and created a replacement. No Machines are created for a deleting Cluster.
 */
describe('MachineSet scale-up and the Cluster being deleted', () => {
  it.each<[string, 'absent' | 'live' | 'deleting', number]>([
    ['creates Machines when the Cluster is live', 'live', 2],
    ['creates Machines when the Cluster is not there (standalone use)', 'absent', 2],
    ['creates none while the Cluster is being deleted', 'deleting', 0],
  ])('%s', async (_name, cluster, expected) => {
    const ctx = testContext();
    for (const t of workerTemplates('md')) await ctx.store.create(t);
    if (cluster !== 'absent') {
      const c = clusterObject('c1');
      await ctx.store.create({ ...c, metadata: { ...c.metadata, finalizers: ['cluster.cluster.x-k8s.io'] } });
      if (cluster === 'deleting') await ctx.store.delete({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: 'default', name: 'c1' });
    }
    const ms = await ctx.store.create(machineSet(2));
    await runReconcile(machineSetReconciler, ctx, key);
    const machines = (await ctx.store.listByOwner(ms.metadata.uid)).filter((o) => o.kind === 'Machine');
    expect(machines).toHaveLength(expected);
  });
});
