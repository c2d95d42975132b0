/**
 * Sets of addresses as sorted, disjoint, inclusive ranges of one family (the shape of the
 * in-cluster provider's `netipx.IPSet`). Pure.
 */

import { type Ip, type IpFamily, parseCidr, parseIp, subnetBounds } from './ip.js';

export interface IpRange {
  first: bigint;
  last: bigint;
}

export interface IpRangeSet {
  family: IpFamily;
  /** Sorted by `first`, disjoint and not adjacent. */
  ranges: readonly IpRange[];
}

export type ParsedEntry = { ok: true; family: IpFamily; range: IpRange } | { ok: false; reason: string };

/**
 * One pool entry: an address (`10.0.0.5`), a range (`10.0.0.2-10.0.0.254`) or a CIDR
 * (`10.0.0.0/28`, every address of the prefix).
 */
export function parseEntry(text: string): ParsedEntry {
  const trimmed = text.trim();
  if (trimmed.includes('-')) {
    const [from, to, ...rest] = trimmed.split('-');
    const first = parseIp(from ?? '');
    const last = parseIp(to ?? '');
    if (rest.length > 0 || !first || !last) return { ok: false, reason: 'is not a valid IP range' };
    if (first.family !== last.family) return { ok: false, reason: 'mixes IPv4 and IPv6 addresses' };
    if (first.value > last.value) return { ok: false, reason: 'ends before it starts' };
    return { ok: true, family: first.family, range: { first: first.value, last: last.value } };
  }
  if (trimmed.includes('/')) {
    const cidr = parseCidr(trimmed);
    if (!cidr) return { ok: false, reason: 'is not a valid CIDR' };
    return { ok: true, family: cidr.ip.family, range: subnetBounds(cidr.ip, cidr.prefix) };
  }
  const ip = parseIp(trimmed);
  if (!ip) return { ok: false, reason: 'is not a valid IP address' };
  return { ok: true, family: ip.family, range: { first: ip.value, last: ip.value } };
}

/** Sorts and merges overlapping or adjacent ranges. */
export function normalize(ranges: readonly IpRange[]): IpRange[] {
  const sorted = [...ranges].sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0));
  const merged: IpRange[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last && range.first <= last.last + 1n) {
      if (range.last > last.last) last.last = range.last;
    } else {
      merged.push({ ...range });
    }
  }
  return merged;
}

/** `ranges` minus `removed` (both normalized or not). */
export function subtract(ranges: readonly IpRange[], removed: readonly IpRange[]): IpRange[] {
  let remaining = normalize(ranges);
  for (const cut of normalize(removed)) {
    const next: IpRange[] = [];
    for (const range of remaining) {
      if (cut.last < range.first || cut.first > range.last) {
        next.push(range);
        continue;
      }
      if (cut.first > range.first) next.push({ first: range.first, last: cut.first - 1n });
      if (cut.last < range.last) next.push({ first: cut.last + 1n, last: range.last });
    }
    remaining = next;
  }
  return remaining;
}

export function size(set: IpRangeSet): bigint {
  return set.ranges.reduce((sum, r) => sum + (r.last - r.first + 1n), 0n);
}

export function contains(set: IpRangeSet, ip: Ip): boolean {
  return ip.family === set.family && set.ranges.some((r) => ip.value >= r.first && ip.value <= r.last);
}

/**
 * The lowest address of the set not in `inUse` (the in-cluster provider's `FindFreeAddress`:
 * walk the sorted ranges upward, take the first free one), or undefined when all are in use.
 */
export function lowestFree(set: IpRangeSet, inUse: ReadonlySet<bigint>): Ip | undefined {
  for (const range of set.ranges) {
    for (let candidate = range.first; candidate <= range.last; candidate++) {
      if (!inUse.has(candidate)) return { family: set.family, value: candidate };
    }
  }
  return undefined;
}
