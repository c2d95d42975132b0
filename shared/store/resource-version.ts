/**
 * resourceVersion scheme: a decimal string, strictly increasing per object and never reused
 * across a delete and re-create of the same name (microseconds since the epoch, bumped past the
 * previous value). Clients treat it as opaque; stores compare it for equality only.
 */

import { randomInt } from 'node:crypto';

export function nextResourceVersion(now: Date, previous?: string): string {
  const fromClock = now.getTime() * 1000 + randomInt(1000);
  const after = previous !== undefined && /^\d+$/.test(previous) ? Number(previous) + 1 : 0;
  return String(Math.max(fromClock, after));
}
