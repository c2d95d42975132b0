import { describe, expect, it } from 'vitest';
import { ipAddressClaimReconciler } from '../../../../functions/reconcile/ipam/claim/reconciler.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { inMemoryMachineReconciler } from '../../../../functions/reconcile/infrastructure/inmemory/machine/reconciler.js';
import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import { valueAt } from '../../../../shared/contracts/json.js';
import { ownerReferenceTo } from '../../../../shared/contracts/object.js';
import { testContext } from '../../../support/reconcile-context.js';

const IPAM = 'ipam.cluster.x-k8s.io';
const machineKey = { group: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachine', namespace: 'default', name: 'm1' };
const claimKey = (name: string) => ({ group: IPAM, kind: 'IPAddressClaim', namespace: 'default', name });
const addressKey = (name: string) => ({ group: IPAM, kind: 'IPAddress', namespace: 'default', name });

async function setup() {
  const ctx = testContext();
  await ctx.store.create({
    apiVersion: `${IPAM}/v1alpha2`,
    kind: 'InClusterIPPool',
    metadata: { name: 'nodes' },
    spec: { addresses: ['10.5.0.10-10.5.0.20'], prefix: 24, gateway: '10.5.0.1' },
  });
  await ctx.store.create({
    apiVersion: `${IPAM}/v1alpha2`,
    kind: 'InClusterIPPool',
    metadata: { name: 'storage' },
    spec: { addresses: ['fd00:5::/120'], prefix: 120 },
  });
  const machine = await ctx.store.create({
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: { name: 'm1', labels: { 'cluster.x-k8s.io/cluster-name': 'c1' } },
    spec: { clusterName: 'c1', version: 'v1.31.0', bootstrap: { dataSecretName: 's' } },
  });
  await ctx.store.create({
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'InMemoryMachine',
    metadata: { name: 'm1', ownerReferences: [ownerReferenceTo(machine, true)] },
    spec: {
      startupSeconds: 0,
      addressesFromPools: [
        { apiGroup: IPAM, kind: 'InClusterIPPool', name: 'nodes' },
        { apiGroup: IPAM, kind: 'InClusterIPPool', name: 'storage' },
      ],
    },
  });
  return ctx;
}

describe('InMemoryMachine addressesFromPools', () => {
  it('claims one address per pool, waits for them, reports them, and releases them with the machine', async () => {
    const ctx = await setup();
    await runReconcile(inMemoryMachineReconciler, ctx, machineKey);
    let infra = await ctx.store.get(machineKey);
    expect(findCondition(conditionsOf(infra?.status), 'IPAddressClaimsFulfilled')?.reason).toBe('WaitingForIPAddress');
    expect(valueAt(infra, 'status', 'initialization')).toEqual({ provisioned: false });

    const claim = await ctx.store.get(claimKey('m1-0'));
    expect(claim?.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'InMemoryMachine', name: 'm1', controller: true });
    expect(claim?.metadata.labels?.['cluster.x-k8s.io/cluster-name']).toBe('c1');
    expect(valueAt(claim, 'spec')).toEqual({ clusterName: 'c1', poolRef: { apiGroup: IPAM, kind: 'InClusterIPPool', name: 'nodes' } });

    await runReconcile(ipAddressClaimReconciler, ctx, claimKey('m1-0'));
    await runReconcile(inMemoryMachineReconciler, ctx, machineKey);
    expect(findCondition(conditionsOf((await ctx.store.get(machineKey))?.status), 'IPAddressClaimsFulfilled')?.message).toBe('waiting for IPAddressClaims m1-1');

    await runReconcile(ipAddressClaimReconciler, ctx, claimKey('m1-1'));
    await runReconcile(inMemoryMachineReconciler, ctx, machineKey);
    infra = await ctx.store.get(machineKey);
    expect(findCondition(conditionsOf(infra?.status), 'IPAddressClaimsFulfilled')?.status).toBe('True');
    expect(valueAt(infra, 'status', 'addresses')).toEqual([
      { type: 'InternalIP', address: '10.5.0.10' },
      { type: 'InternalIP', address: 'fd00:5::1' },
      { type: 'Hostname', address: 'm1' },
    ]);
    expect(valueAt(await ctx.store.get(addressKey('m1-0')), 'spec')).toMatchObject({ address: '10.5.0.10', prefix: 24, gateway: '10.5.0.1' });

    await ctx.store.delete(machineKey);
    for (const name of ['m1-0', 'm1-1']) {
      expect((await ctx.store.get(claimKey(name)))?.metadata.deletionTimestamp).toBeDefined();
      await runReconcile(ipAddressClaimReconciler, ctx, claimKey(name));
      expect(await ctx.store.get(claimKey(name))).toBeUndefined();
      expect(await ctx.store.get(addressKey(name))).toBeUndefined();
    }
    const reservations = await ctx.store.list({ group: 'ipam.capless.dev', kind: 'IPAddressReservation', namespace: 'default' });
    expect(reservations.items).toEqual([]);
  });
});
