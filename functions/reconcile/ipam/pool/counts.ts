/** A pool's `status.ipAddresses` (IC `internal/controllers/inclusterippool.go`), pure. */

import type { Ip } from '../../../../shared/ipam/ip.js';
import { contains, type IpRangeSet, size } from '../../../../shared/ipam/ip-ranges.js';

export interface PoolCounts {
  total: number;
  used: number;
  free: number;
  outOfRange: number;
}

function capped(n: bigint): number {
  return n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n);
}

/** total = allocatable addresses, used = addresses held, free = total − used (≥ 0), outOfRange = held ones outside the set. */
export function poolCounts(set: IpRangeSet, held: readonly Ip[]): PoolCounts {
  const total = size(set);
  const used = BigInt(held.length);
  const outOfRange = held.filter((ip) => !contains(set, ip)).length;
  const free = total > used ? total - used : 0n;
  return { total: capped(total), used: capped(used), free: capped(free), outOfRange };
}
