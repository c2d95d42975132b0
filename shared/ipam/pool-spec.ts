/**
 * An in-cluster pool's spec as an allocatable set, and what is wrong with it (the in-cluster
 * provider's `PoolSpecToIPSet` and its pool webhook). Pure; admission and the allocator share it.
 */

import { BITS, formatIp, type Ip, type IpFamily, parseIp, subnetBounds } from './ip.js';
import { type IpRange, type IpRangeSet, normalize, parseEntry, subtract } from './ip-ranges.js';

export interface PoolSpec {
  addresses: readonly string[];
  prefix: number;
  gateway?: string | undefined;
  excludedAddresses?: readonly string[] | undefined;
  allocateReservedIPAddresses?: boolean | undefined;
}

export interface PoolProblem {
  /** Path under the pool's `spec`, e.g. `addresses[2]`. */
  field: string;
  value: unknown;
  detail: string;
}

export type PoolAnalysis = { ok: true; set: IpRangeSet; gateway?: Ip } | { ok: false; problems: PoolProblem[] };

interface Entry {
  field: string;
  text: string;
  range: IpRange;
  family: IpFamily;
}

function parseEntries(list: readonly string[], name: string, problems: PoolProblem[]): Entry[] {
  const entries: Entry[] = [];
  for (const [index, text] of list.entries()) {
    const field = `${name}[${index}]`;
    const parsed = parseEntry(text);
    if (parsed.ok) entries.push({ field, text, range: parsed.range, family: parsed.family });
    else problems.push({ field, value: text, detail: parsed.reason });
  }
  return entries;
}

function overlaps(a: IpRange, b: IpRange): boolean {
  return a.first <= b.last && b.first <= a.last;
}

function familyProblems(family: IpFamily, example: string, entries: readonly Entry[], gateway: Ip | undefined, gatewayText: string | undefined): PoolProblem[] {
  const problems: PoolProblem[] = entries
    .filter((entry) => entry.family !== family)
    .map((entry) => ({ field: entry.field, value: entry.text, detail: `must be IPv${family} like ${example}` }));
  if (gateway && gateway.family !== family) problems.push({ field: 'gateway', value: gatewayText, detail: `must be IPv${family} like ${example}` });
  return problems;
}

function placementProblems(addresses: readonly Entry[], subnet: IpRange, subnetText: string, gateway: Ip | undefined, gatewayText: string | undefined): PoolProblem[] {
  const problems: PoolProblem[] = [];
  const outside = (r: IpRange) => r.first < subnet.first || r.last > subnet.last;
  for (const entry of addresses) {
    if (outside(entry.range)) problems.push({ field: entry.field, value: entry.text, detail: `must be inside the pool's subnet ${subnetText}` });
  }
  if (gateway && outside({ first: gateway.value, last: gateway.value })) {
    problems.push({ field: 'gateway', value: gatewayText, detail: `must be inside the pool's subnet ${subnetText}` });
  }
  for (const [i, a] of addresses.entries()) {
    const clash = addresses.slice(0, i).find((b) => overlaps(a.range, b.range));
    if (clash) problems.push({ field: a.field, value: a.text, detail: `overlaps ${clash.field} (${clash.text})` });
  }
  return problems;
}

function parseGateway(text: string | undefined, problems: PoolProblem[]): Ip | undefined {
  if (text === undefined || text === '') return undefined;
  const gateway = parseIp(text);
  if (!gateway) problems.push({ field: 'gateway', value: text, detail: 'is not a valid IP address' });
  return gateway;
}

/**
 * The pool webhook's rules: addresses present and parseable, one IP family throughout, the
 * prefix fits the family, addresses and gateway inside `<first address>/<prefix>`, and (capless)
 * no two `addresses` entries overlap.
 */
export function analysePool(spec: PoolSpec): PoolAnalysis {
  const problems: PoolProblem[] = [];
  if (spec.addresses.length === 0) problems.push({ field: 'addresses', value: [], detail: 'addresses is required' });
  const addresses = parseEntries(spec.addresses, 'addresses', problems);
  const excluded = parseEntries(spec.excludedAddresses ?? [], 'excludedAddresses', problems);
  const gateway = parseGateway(spec.gateway, problems);
  const first = addresses[0];
  if (!first) return { ok: false, problems };

  const family = first.family;
  problems.push(...familyProblems(family, first.text, [...addresses, ...excluded], gateway, spec.gateway));
  if (spec.prefix > BITS[family]) {
    problems.push({ field: 'prefix', value: spec.prefix, detail: `must be at most ${BITS[family]} for IPv${family}` });
  }
  if (problems.length > 0) return { ok: false, problems };

  const subnet = subnetBounds({ family, value: first.range.first }, spec.prefix);
  const subnetText = `${formatIp({ family, value: subnet.first })}/${spec.prefix}`;
  problems.push(...placementProblems(addresses, subnet, subnetText, gateway, spec.gateway));
  if (problems.length > 0) return { ok: false, problems };

  const removed: IpRange[] = excluded.map((e) => e.range);
  if (!spec.allocateReservedIPAddresses) removed.push(...reservedAddresses(family, spec.prefix, subnet));
  if (gateway) removed.push({ first: gateway.value, last: gateway.value });
  const ranges = subtract(normalize(addresses.map((a) => a.range)), removed);
  return { ok: true, set: { family, ranges }, ...(gateway ? { gateway } : {}) };
}

/** The network address (and for IPv4 the broadcast address) of subnets that have hosts besides them. */
function reservedAddresses(family: IpFamily, prefix: number, subnet: IpRange): IpRange[] {
  const hostBits = BITS[family] - prefix;
  if (hostBits < 2) return [];
  const network = { first: subnet.first, last: subnet.first };
  return family === 4 ? [network, { first: subnet.last, last: subnet.last }] : [network];
}
