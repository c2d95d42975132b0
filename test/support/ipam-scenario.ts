/**
 * The IPAM scenario ("200 claims vs 150 addresses"), through a running control plane's HTTP API
 * only: shared by the embedded-store integration test and the DynamoDB Local one in test:aws.
 */

import { expect } from 'vitest';
import { conditionsOf, findCondition } from '../../shared/contracts/conditions.js';
import { isRecord, numberAt, stringAt } from '../../shared/contracts/json.js';
import type { KubeObject } from '../../shared/contracts/object.js';
import { parseIp } from '../../shared/ipam/ip.js';
import { contains } from '../../shared/ipam/ip-ranges.js';
import { analysePool, type PoolSpec } from '../../shared/ipam/pool-spec.js';
import { eventually } from './eventually.js';
import type { RestClient } from './rest-client.js';

export const IPAM_V1BETA2 = 'ipam.cluster.x-k8s.io/v1beta2';
export const POOL_V1ALPHA2 = 'ipam.cluster.x-k8s.io/v1alpha2';

export interface PoolCase {
  title: string;
  kind: 'InClusterIPPool' | 'GlobalInClusterIPPool';
  /** The pool's namespace (InClusterIPPool) — claims of a global pool spread over `claimNamespaces`. */
  namespace: string;
  claimNamespaces: readonly string[];
  spec: PoolSpec;
}

/** 150 allocatable addresses each: a /24 less network, broadcast, gateway and 100 excluded; an IPv6 /120 likewise. */
export const POOL_CASES: readonly PoolCase[] = [
  {
    title: 'GlobalInClusterIPPool (IPv4), claims in four namespaces',
    kind: 'GlobalInClusterIPPool',
    namespace: 'default',
    claimNamespaces: ['team-a', 'team-b', 'team-c', 'team-d'],
    spec: { addresses: ['10.10.0.0/24'], prefix: 24, gateway: '10.10.0.1', excludedAddresses: ['10.10.0.100-10.10.0.199', '10.10.0.250-10.10.0.252'] },
  },
  {
    title: 'InClusterIPPool (IPv6), claims in its namespace',
    kind: 'InClusterIPPool',
    namespace: 'team-v6',
    claimNamespaces: ['team-v6'],
    spec: { addresses: ['fd00:10::/120'], prefix: 120, gateway: 'fd00:10::1', excludedAddresses: ['fd00:10::80-fd00:10::e7'] },
  },
];

interface ClaimView {
  claim: KubeObject;
  ready: boolean;
  reason: string | undefined;
}

function view(claim: KubeObject): ClaimView {
  const ready = findCondition(conditionsOf(claim.status), 'Ready');
  return { claim, ready: ready?.status === 'True' && isRecord(claim.status?.addressRef), reason: ready?.reason };
}

async function claimsOf(api: RestClient, c: PoolCase, prefix: string): Promise<ClaimView[]> {
  const lists = await Promise.all(c.claimNamespaces.map((ns) => api.list(IPAM_V1BETA2, 'IPAddressClaim', ns)));
  return lists.flat().filter((claim) => claim.metadata.name.startsWith(prefix)).map(view);
}

async function addressesOf(api: RestClient, c: PoolCase, claims: readonly ClaimView[]): Promise<Map<string, string>> {
  const byClaim = new Map<string, string>();
  const lists = await Promise.all(c.claimNamespaces.map((ns) => api.list(IPAM_V1BETA2, 'IPAddress', ns)));
  const addresses = new Map(lists.flat().map((a) => [`${a.metadata.namespace}/${a.metadata.name}`, a]));
  for (const { claim, ready } of claims) {
    if (!ready) continue;
    const ref = stringAt(claim, 'status', 'addressRef', 'name') ?? '';
    const address = addresses.get(`${claim.metadata.namespace}/${ref}`);
    const text = stringAt(address, 'spec', 'address');
    if (text) byClaim.set(`${claim.metadata.namespace}/${claim.metadata.name}`, text);
  }
  return byClaim;
}

function expectInsidePool(c: PoolCase, addresses: Iterable<string>): void {
  const analysis = analysePool(c.spec);
  if (!analysis.ok) throw new Error('bad pool fixture');
  for (const text of addresses) {
    const ip = parseIp(text);
    expect(ip && contains(analysis.set, ip), `${text} is allocatable in ${c.title}`).toBe(true);
  }
}

/** Waits until `readyCount` claims are Ready and the rest wait with PoolExhausted; returns the claim → address map. */
async function settled(api: RestClient, c: PoolCase, prefix: string, readyCount: number, waitingCount: number) {
  return eventually(
    `${readyCount} Ready and ${waitingCount} exhausted claims (${c.title})`,
    async (report) => {
      const claims = await claimsOf(api, c, prefix);
      const ready = claims.filter((v) => v.ready);
      const exhausted = claims.filter((v) => !v.ready && v.reason === 'PoolExhausted');
      report({ claims: claims.length, ready: ready.length, exhausted: exhausted.length });
      if (claims.length !== readyCount + waitingCount || ready.length !== readyCount || exhausted.length !== waitingCount) return undefined;
      const addresses = await addressesOf(api, c, claims);
      return addresses.size === readyCount ? { claims, addresses } : undefined;
    },
    { timeoutMs: 420_000, intervalMs: 500 },
  );
}

function poolObject(c: PoolCase, name: string): KubeObject {
  return {
    apiVersion: POOL_V1ALPHA2,
    kind: c.kind,
    metadata: { name, ...(c.kind === 'InClusterIPPool' ? { namespace: c.namespace } : {}) },
    spec: { ...c.spec },
  };
}

function claimObject(c: PoolCase, pool: string, name: string, namespace: string): KubeObject {
  return {
    apiVersion: IPAM_V1BETA2,
    kind: 'IPAddressClaim',
    metadata: { name, namespace },
    spec: { poolRef: { apiGroup: 'ipam.cluster.x-k8s.io', kind: c.kind, name: pool } },
  };
}

/**
 * 200 claims at once against 150 addresses: exactly 150 Ready with distinct addresses inside the
 * pool, 50 waiting with PoolExhausted, the pool counting 150/150/0; 30 claims deleted: 30 waiting
 * ones get exactly the freed addresses; the pool's deletion waits while addresses are held.
 */
export async function runPoolScenario(api: RestClient, c: PoolCase, pool: string): Promise<void> {
  await api.mustCreate(poolObject(c, pool));
  const prefix = `${pool}-claim-`;
  const claims = Array.from({ length: 200 }, (_, i) => claimObject(c, pool, `${prefix}${i}`, c.claimNamespaces[i % c.claimNamespaces.length] ?? 'default'));
  await Promise.all(claims.map((claim) => api.mustCreate(claim)));

  const first = await settled(api, c, prefix, 150, 50);
  expect(new Set(first.addresses.values()).size).toBe(150);
  expectInsidePool(c, first.addresses.values());
  const poolStatus = await eventually('pool counts', async (report) => {
    const stored = await api.get(POOL_V1ALPHA2, c.kind, c.namespace, pool);
    report(stored?.status);
    return numberAt(stored, 'status', 'ipAddresses', 'used') === 150 ? stored : undefined;
  });
  expect(poolStatus.status?.ipAddresses).toEqual({ total: 150, used: 150, free: 0, outOfRange: 0 });

  const released = first.claims.filter((v) => v.ready).slice(0, 30);
  const freed = new Set(released.map((v) => first.addresses.get(`${v.claim.metadata.namespace}/${v.claim.metadata.name}`)));
  await Promise.all(released.map((v) => api.delete(IPAM_V1BETA2, 'IPAddressClaim', v.claim.metadata.namespace ?? 'default', v.claim.metadata.name)));

  const second = await settled(api, c, prefix, 150, 20);
  expect(new Set(second.addresses.values()).size).toBe(150);
  expectInsidePool(c, second.addresses.values());
  const newcomers = [...second.addresses].filter(([claim]) => !first.addresses.has(claim)).map(([, address]) => address);
  expect(newcomers).toHaveLength(30);
  expect(new Set(newcomers)).toEqual(freed);

  // A pool with allocated addresses is not removed: it waits, saying why (as the in-cluster provider's finalizer does).
  await api.delete(POOL_V1ALPHA2, c.kind, c.namespace, pool);
  const waiting = await eventually('the pool waits for its addresses', async (report) => {
    const stored = await api.get(POOL_V1ALPHA2, c.kind, c.namespace, pool);
    report(stored?.status);
    return findCondition(conditionsOf(stored?.status), 'Deleting')?.reason === 'AddressesInUse' ? stored : undefined;
  });
  expect(waiting.metadata.deletionTimestamp).toBeDefined();
}
