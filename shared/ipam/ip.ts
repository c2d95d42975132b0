/**
 * IP addresses as numbers: parse and format IPv4 and IPv6 the way Go's `net/netip` does
 * (no leading zeros in IPv4 octets, no zones, RFC 5952 text for IPv6). Pure; used by admission
 * (pool and IPAddress validation) and by the allocator.
 */

export type IpFamily = 4 | 6;

export interface Ip {
  family: IpFamily;
  value: bigint;
}

export const BITS: Readonly<Record<IpFamily, number>> = { 4: 32, 6: 128 };

const IPV4_OCTET = /^(0|[1-9][0-9]{0,2})$/;
const IPV6_GROUP = /^[0-9a-fA-F]{1,4}$/;

function parseIpv4Value(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!IPV4_OCTET.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = (value << 8n) | BigInt(octet);
  }
  return value;
}

function parseGroups(text: string): bigint[] | undefined {
  if (text === '') return [];
  const groups: bigint[] = [];
  const parts = text.split(':');
  for (const [index, part] of parts.entries()) {
    if (index === parts.length - 1 && part.includes('.')) {
      const v4 = parseIpv4Value(part);
      if (v4 === undefined) return undefined;
      groups.push(v4 >> 16n, v4 & 0xffffn);
    } else if (IPV6_GROUP.test(part)) {
      groups.push(BigInt(Number.parseInt(part, 16)));
    } else {
      return undefined;
    }
  }
  return groups;
}

function parseIpv6Value(text: string): bigint | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = parseGroups(halves[0] ?? '');
  const tail = halves.length === 2 ? parseGroups(halves[1] ?? '') : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<bigint>(Math.max(0, missing)).fill(0n), ...tail];
  return groups.reduce((acc, group) => (acc << 16n) | group, 0n);
}

/** An IPv4 or IPv6 address, or undefined when the text is not one. */
export function parseIp(text: string): Ip | undefined {
  if (text.includes(':')) {
    const value = parseIpv6Value(text);
    return value === undefined ? undefined : { family: 6, value };
  }
  const value = parseIpv4Value(text);
  return value === undefined ? undefined : { family: 4, value };
}

function formatIpv6(value: bigint): string {
  const groups: number[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(Number((value >> shift) & 0xffffn));
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; ) {
    if (groups[start] !== 0) {
      start++;
      continue;
    }
    let end = start;
    while (end < 8 && groups[end] === 0) end++;
    if (end - start > bestLength) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

export function formatIp(ip: Ip): string {
  if (ip.family === 6) return formatIpv6(ip.value);
  return [24n, 16n, 8n, 0n].map((shift) => String((ip.value >> shift) & 0xffn)).join('.');
}

/** The first and last address of `<ip>/<prefix>` (the network and, for IPv4, broadcast address). */
export function subnetBounds(ip: Ip, prefix: number): { first: bigint; last: bigint } {
  const hostBits = BigInt(BITS[ip.family] - prefix);
  const size = 1n << hostBits;
  const first = (ip.value >> hostBits) << hostBits;
  return { first, last: first + size - 1n };
}

/** `<ip>/<prefix>` parsed; the prefix must fit the family. */
export function parseCidr(text: string): { ip: Ip; prefix: number } | undefined {
  const slash = text.indexOf('/');
  if (slash === -1) return undefined;
  const ip = parseIp(text.slice(0, slash));
  const bits = text.slice(slash + 1);
  if (!ip || !/^(0|[1-9][0-9]{0,2})$/.test(bits)) return undefined;
  const prefix = Number(bits);
  return prefix <= BITS[ip.family] ? { ip, prefix } : undefined;
}
