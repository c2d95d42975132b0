/**
 * An InMemoryMachine's addresses from IPAM pools (Cluster API's IPAM contract, as CAPV does it):
 * one IPAddressClaim per entry of `spec.addressesFromPools`, named `<machine>-<index>`, owned by
 * the machine (so released with it) and labelled with its cluster; the machine waits until every
 * claim has an IPAddress and then reports those addresses.
 */

import { numberAt, stringAt } from '../../../../../shared/contracts/json.js';
import { type KubeObject, LABEL_CLUSTER_NAME, ownerReferenceTo, type StoredObject } from '../../../../../shared/contracts/object.js';
import { contractRefSchema, type ContractRef } from '../../../../../shared/contracts/schemas/common/references.js';
import { IPAM_GROUP } from '../../../../../shared/contracts/schemas/groups.js';
import { isAlreadyExists } from '../../../../../shared/errors/index.js';
import type { PhaseResult } from '../../../engine/skeleton/types.js';
import type { InMemoryMachineScope } from './scope.js';

export const CONDITION_IP_ADDRESS_CLAIMS_FULFILLED = 'IPAddressClaimsFulfilled';

export interface PoolAddress {
  address: string;
  prefix?: number;
  gateway?: string;
}

export function poolRefsOf(machine: StoredObject): ContractRef[] {
  const raw = machine.spec?.addressesFromPools;
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item: unknown) => {
    const parsed = contractRefSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

export function claimName(machine: StoredObject, index: number): string {
  return `${machine.metadata.name}-${index}`;
}

function claimFor(s: InMemoryMachineScope, poolRef: ContractRef, index: number): KubeObject {
  const cluster = stringAt(s.machine, 'spec', 'clusterName');
  return {
    apiVersion: `${IPAM_GROUP}/v1beta2`,
    kind: 'IPAddressClaim',
    metadata: {
      name: claimName(s.object, index),
      namespace: s.object.metadata.namespace,
      ...(cluster ? { labels: { [LABEL_CLUSTER_NAME]: cluster } } : {}),
      ownerReferences: [ownerReferenceTo(s.object, true)],
    },
    spec: { ...(cluster ? { clusterName: cluster } : {}), poolRef },
  };
}

async function ensureClaim(s: InMemoryMachineScope, poolRef: ContractRef, index: number): Promise<StoredObject | undefined> {
  const key = { group: IPAM_GROUP, kind: 'IPAddressClaim', namespace: s.object.metadata.namespace, name: claimName(s.object, index) };
  const existing = await s.ctx.store.get(key);
  if (existing) return existing;
  try {
    return await s.ctx.store.create(claimFor(s, poolRef, index));
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
    return s.ctx.store.get(key);
  }
}

async function addressOf(s: InMemoryMachineScope, claim: StoredObject): Promise<PoolAddress | undefined> {
  const name = stringAt(claim, 'status', 'addressRef', 'name');
  if (!name) return undefined;
  const address = await s.ctx.store.get({ group: IPAM_GROUP, kind: 'IPAddress', namespace: claim.metadata.namespace, name });
  const text = stringAt(address, 'spec', 'address');
  if (!text) return undefined;
  const prefix = numberAt(address, 'spec', 'prefix');
  const gateway = stringAt(address, 'spec', 'gateway');
  return { address: text, ...(prefix !== undefined ? { prefix } : {}), ...(gateway ? { gateway } : {}) };
}

/** Creates the claims, then waits (no timer: claims are watched by owner) until each has an address. */
export async function ipAddressClaimsPhase(s: InMemoryMachineScope): Promise<PhaseResult> {
  const pools = poolRefsOf(s.object);
  if (pools.length === 0) return {};
  const addresses: PoolAddress[] = [];
  const waiting: string[] = [];
  for (const [index, poolRef] of pools.entries()) {
    const claim = await ensureClaim(s, poolRef, index);
    const address = claim && (await addressOf(s, claim));
    if (address) addresses.push(address);
    else waiting.push(claimName(s.object, index));
  }
  if (waiting.length > 0) {
    s.conditions.push({ type: CONDITION_IP_ADDRESS_CLAIMS_FULFILLED, status: 'False', reason: 'WaitingForIPAddress', message: `waiting for IPAddressClaims ${waiting.join(', ')}` });
    s.conditions.push({ type: 'Ready', status: 'False', reason: 'WaitingForIPAddress', message: 'the machine waits for its addresses from IPAM pools' });
    return { stop: true };
  }
  s.conditions.push({ type: CONDITION_IP_ADDRESS_CLAIMS_FULFILLED, status: 'True', reason: 'Fulfilled' });
  s.poolAddresses = addresses;
  return {};
}
