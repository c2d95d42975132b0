/**
 * A claim that arrives with its IPAddress (clusterctl move, a restore) but without capless's
 * reservation, which is neither served nor moved: its address is reserved again, so the pool
 * counts it and gives it to no other claim; an address another claim holds is a conflict on the claim.
 */
import { describe, expect, it } from 'vitest';
import { ipAddressClaimReconciler } from '../../../../functions/reconcile/ipam/claim/reconciler.js';
import { inClusterIPPoolReconciler } from '../../../../functions/reconcile/ipam/pool/reconciler.js';
import { reservationsOfPool, reservedAddress } from '../../../../functions/reconcile/ipam/reservations.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import { numberAt } from '../../../../shared/contracts/json.js';
import { ownerReferenceTo, type StoredObject } from '../../../../shared/contracts/object.js';
import { formatIp } from '../../../../shared/ipam/ip.js';
import { testContext } from '../../../support/reconcile-context.js';

const NS = 'moved';
const IPAM = 'ipam.cluster.x-k8s.io';
const POOL_REF = { apiGroup: IPAM, kind: 'InClusterIPPool', name: 'node-ips' };

async function setUp() {
  const ctx = testContext();
  const pool = await ctx.store.create({
    apiVersion: `${IPAM}/v1alpha2`,
    kind: 'InClusterIPPool',
    metadata: { name: 'node-ips', namespace: NS },
    spec: { addresses: ['10.20.0.10-10.20.0.12'], prefix: 24, gateway: '10.20.0.1' },
  });
  return { ctx, pool };
}

/** A claim and the IPAddress made for it on another management cluster, as clusterctl creates them. */
async function movedClaim(ctx: ReturnType<typeof testContext>, pool: StoredObject, name: string, address: string): Promise<StoredObject> {
  const claim = await ctx.store.create({ apiVersion: `${IPAM}/v1beta2`, kind: 'IPAddressClaim', metadata: { name, namespace: NS }, spec: { poolRef: POOL_REF } });
  await ctx.store.create({
    apiVersion: `${IPAM}/v1beta2`,
    kind: 'IPAddress',
    metadata: { name, namespace: NS, ownerReferences: [ownerReferenceTo(claim), ownerReferenceTo(pool, false)] },
    spec: { address, prefix: 24, gateway: '10.20.0.1', claimRef: { name }, poolRef: POOL_REF },
  });
  return claim;
}

const key = (kind: string, name: string) => ({ group: IPAM, kind, namespace: NS, name });

async function ready(ctx: ReturnType<typeof testContext>, name: string) {
  const claim = await ctx.store.get(key('IPAddressClaim', name));
  const condition = findCondition(conditionsOf(claim?.status), 'Ready');
  return [condition?.status, condition?.reason, condition?.message ?? ''];
}

describe('a claim moved in with its IPAddress', () => {
  it("reserves its address again: the pool counts it, and the next claim gets another address", async () => {
    const { ctx, pool } = await setUp();
    await movedClaim(ctx, pool, 'cp-0', '10.20.0.10');
    await runReconcile(ipAddressClaimReconciler, ctx, key('IPAddressClaim', 'cp-0'));
    expect(await ready(ctx, 'cp-0')).toEqual(['True', 'Allocated', '']);
    expect((await reservationsOfPool(ctx.store, pool)).map((r) => formatIpOf(r))).toEqual(['10.20.0.10']);

    await runReconcile(inClusterIPPoolReconciler, ctx, key('InClusterIPPool', 'node-ips'));
    expect(numberAt(await ctx.store.get(key('InClusterIPPool', 'node-ips')), 'status', 'ipAddresses', 'used')).toBe(1);

    await ctx.store.create({ apiVersion: `${IPAM}/v1beta2`, kind: 'IPAddressClaim', metadata: { name: 'worker-0', namespace: NS }, spec: { poolRef: POOL_REF } });
    await runReconcile(ipAddressClaimReconciler, ctx, key('IPAddressClaim', 'worker-0'));
    expect((await ctx.store.get(key('IPAddress', 'worker-0')))?.spec?.address).toBe('10.20.0.11');
  });

  it('an address another claim already holds is a conflict on the moved claim, which keeps its IPAddress', async () => {
    const { ctx, pool } = await setUp();
    await ctx.store.create({ apiVersion: `${IPAM}/v1beta2`, kind: 'IPAddressClaim', metadata: { name: 'local', namespace: NS }, spec: { poolRef: POOL_REF } });
    await runReconcile(ipAddressClaimReconciler, ctx, key('IPAddressClaim', 'local'));
    expect((await ctx.store.get(key('IPAddress', 'local')))?.spec?.address).toBe('10.20.0.10');

    await movedClaim(ctx, pool, 'moved-0', '10.20.0.10');
    await runReconcile(ipAddressClaimReconciler, ctx, key('IPAddressClaim', 'moved-0'));
    const [status, reason, message] = await ready(ctx, 'moved-0');
    expect([status, reason]).toEqual(['False', 'AllocationFailed']);
    expect(message).toContain('has reserved for claim local');
    expect(await ctx.store.get(key('IPAddress', 'moved-0'))).toBeDefined();
    expect((await reservationsOfPool(ctx.store, pool)).length).toBe(1);
  });
});

function formatIpOf(reservation: StoredObject): string {
  const ip = reservedAddress(reservation);
  return ip ? formatIp(ip) : '';
}
