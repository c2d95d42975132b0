/**
 * A cluster's parts owned by their Cluster, as Cluster API's controllers leave them, so that
 * `clusterctl move` finds them by following ownerReferences to the Cluster.
 */
import { describe, expect, it } from 'vitest';
import { machineDeploymentReconciler } from '../../../../functions/reconcile/core/machinedeployment/reconciler.js';
import { machineHealthCheckReconciler } from '../../../../functions/reconcile/core/machinehealthcheck/reconciler.js';
import { machineSetReconciler } from '../../../../functions/reconcile/core/machineset/reconciler.js';
import { withClusterOwner } from '../../../../functions/reconcile/engine/references/cluster-owner.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import type { KubeObject, ObjectKey, OwnerReference, StoredObject } from '../../../../shared/contracts/object.js';
import { NS, clusterObject, machineDeploymentObject, workerTemplates } from '../../../support/core-fixtures.js';
import { testContext } from '../../../support/reconcile-context.js';

const CORE = 'cluster.x-k8s.io';

function stored(kind: string, name: string, uid: string, ownerReferences: OwnerReference[] = []): StoredObject {
  return {
    apiVersion: `${CORE}/v1beta2`,
    kind,
    metadata: { name, namespace: NS, uid, resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z', ownerReferences },
  };
}

const cluster = stored('Cluster', 'c1', 'uid-c1');
const ref = (kind: string, name: string, uid: string, controller = false): OwnerReference => ({
  apiVersion: `${CORE}/v1beta2`,
  kind,
  name,
  uid,
  controller,
  blockOwnerDeletion: true,
});

describe('withClusterOwner', () => {
  it.each([
    ['no owner: the Cluster is added, not as controller', [], [ref('Cluster', 'c1', 'uid-c1')]],
    ['owned already: nothing to write', [ref('Cluster', 'c1', 'uid-c1')], undefined],
    ['an earlier Cluster of that name (moved, recreated): replaced in place', [ref('MachineSet', 'ms', 'uid-ms', true), ref('Cluster', 'c1', 'uid-old')], [ref('MachineSet', 'ms', 'uid-ms', true), ref('Cluster', 'c1', 'uid-c1')]],
    ['another Cluster and other owners are kept', [ref('Cluster', 'c2', 'uid-c2')], [ref('Cluster', 'c2', 'uid-c2'), ref('Cluster', 'c1', 'uid-c1')]],
  ])('%s', (_what, refs, expected) => {
    const result = withClusterOwner(stored('MachineDeployment', 'md', 'uid-md', refs), cluster);
    expect(result?.metadata.ownerReferences).toEqual(expected);
  });
});

async function setUp(objects: KubeObject[]) {
  const ctx = testContext();
  const made = await ctx.store.create(clusterObject('c1'));
  for (const object of objects) await ctx.store.create(object);
  return { ctx, cluster: made };
}

async function ownersOf(ctx: ReturnType<typeof testContext>, key: ObjectKey): Promise<[string, string][]> {
  const object = await ctx.store.get(key);
  return (object?.metadata.ownerReferences ?? []).map((r) => [r.kind, r.uid]);
}

const templateKeys = (name: string): ObjectKey[] =>
  workerTemplates(name).map((t) => ({ group: t.apiVersion.split('/')[0] ?? '', kind: t.kind, namespace: NS, name: t.metadata.name }));

function machineSet(name: string, replicas: number): KubeObject {
  const md = machineDeploymentObject(name, 'c1', replicas);
  return { apiVersion: md.apiVersion, kind: 'MachineSet', metadata: { name, namespace: NS }, spec: { ...md.spec } };
}

describe("Cluster API's ownership of a cluster's parts", () => {
  it('a MachineDeployment: itself and both templates its Machines are made from', async () => {
    const { ctx, cluster: c1 } = await setUp([...workerTemplates('md'), machineDeploymentObject('md', 'c1', 0)]);
    const key = { group: CORE, kind: 'MachineDeployment', namespace: NS, name: 'md' };
    await runReconcile(machineDeploymentReconciler, ctx, key);
    expect(await ownersOf(ctx, key)).toEqual([['Cluster', c1.metadata.uid]]);
    for (const template of templateKeys('md')) expect(await ownersOf(ctx, template)).toEqual([['Cluster', c1.metadata.uid]]);
  });

  it("a MachineSet without a MachineDeployment: itself and its templates; one a MachineDeployment controls: only the templates", async () => {
    const { ctx, cluster: c1 } = await setUp([...workerTemplates('ms'), machineSet('ms', 0)]);
    const key = { group: CORE, kind: 'MachineSet', namespace: NS, name: 'ms' };
    await runReconcile(machineSetReconciler, ctx, key);
    expect(await ownersOf(ctx, key)).toEqual([['Cluster', c1.metadata.uid]]);
    for (const template of templateKeys('ms')) expect(await ownersOf(ctx, template)).toEqual([['Cluster', c1.metadata.uid]]);

    const { ctx: other } = await setUp([...workerTemplates('md'), machineDeploymentObject('md', 'c1', 1)]);
    await runReconcile(machineDeploymentReconciler, other, { group: CORE, kind: 'MachineDeployment', namespace: NS, name: 'md' });
    const [owned] = (await other.store.list({ group: CORE, kind: 'MachineSet', namespace: NS })).items;
    if (!owned) throw new Error('the MachineDeployment made no MachineSet');
    const msKey = { group: CORE, kind: 'MachineSet', namespace: NS, name: owned.metadata.name };
    await runReconcile(machineSetReconciler, other, msKey);
    expect((await ownersOf(other, msKey)).map(([kind]) => kind)).toEqual(['MachineDeployment']);
  });

  it('a MachineHealthCheck', async () => {
    const check = {
      apiVersion: `${CORE}/v1beta2`,
      kind: 'MachineHealthCheck',
      metadata: { name: 'workers', namespace: NS },
      spec: { clusterName: 'c1', selector: { matchLabels: { pool: 'a' } }, checks: { unhealthyNodeConditions: [{ type: 'Ready', status: 'False', timeoutSeconds: 60 }] } },
    };
    const { ctx, cluster: c1 } = await setUp([check]);
    const key = { group: CORE, kind: 'MachineHealthCheck', namespace: NS, name: 'workers' };
    await runReconcile(machineHealthCheckReconciler, ctx, key);
    expect(await ownersOf(ctx, key)).toEqual([['Cluster', c1.metadata.uid]]);
  });

  it('nothing is owned by a Cluster that does not exist (yet)', async () => {
    const ctx = testContext();
    for (const object of [...workerTemplates('md'), machineDeploymentObject('md', 'c1', 0)]) await ctx.store.create(object);
    const key = { group: CORE, kind: 'MachineDeployment', namespace: NS, name: 'md' };
    await runReconcile(machineDeploymentReconciler, ctx, key);
    expect(await ownersOf(ctx, key)).toEqual([]);
    for (const template of templateKeys('md')) expect(await ownersOf(ctx, template)).toEqual([]);
  });
});
