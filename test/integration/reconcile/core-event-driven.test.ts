/**
 * The core reconcilers driven the production way in one process (test/support/core-event-loop.ts).
 * Proves the watches (as data) reach every object that must react; no converge loop re-runs
 * everything here.
 */

import { afterAll, describe, expect, it } from 'vitest';
import {
  bootstrapSecret,
  clusterObject,
  infraClusterObject,
  machineDeploymentObject,
  standaloneMachine,
  workerTemplates,
} from '../../support/core-fixtures.js';
import { startCoreEventLoop } from '../../support/core-event-loop.js';

const { store, queue, until, stop } = startCoreEventLoop();

afterAll(stop);

describe('core reconcilers on the router and the in-process queue', () => {
  it('bring a Cluster with a standalone control-plane Machine and 2 workers to Running', async () => {
    for (const obj of [
      clusterObject('c1'),
      infraClusterObject('c1'),
      bootstrapSecret('c1-cp-bootstrap', 'c1'),
      ...standaloneMachine('c1-cp-0', 'c1', 'c1-cp-bootstrap', 0),
      ...workerTemplates('md'),
      machineDeploymentObject('md', 'c1', 2),
    ]) {
      await store.create(obj);
    }
    const running = await until(async () => {
      const machines = (await store.list({ group: 'cluster.x-k8s.io', kind: 'Machine' })).items;
      const cluster = await store.get({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: 'default', name: 'c1' });
      return machines.length === 3 && machines.every((m) => m.status?.phase === 'Running') && cluster?.status?.phase === 'Provisioned';
    });
    expect(running).toBe(true);
    expect(queue.deadLetters).toEqual([]);
  });

  it('delete the Cluster and everything it owns', async () => {
    await store.delete({ group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: 'default', name: 'c1' });
    const gone = await until(async () => {
      const left = await store.listByCluster('default', 'c1');
      return left.every((o) => o.kind === 'Secret' || o.kind.endsWith('Template'));
    });
    expect(gone).toBe(true);
  });
});
