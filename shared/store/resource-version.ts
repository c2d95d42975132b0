/**
 * resourceVersion scheme: a decimal string, strictly increasing per object and never reused
 * across a delete and re-create of the same name (microseconds since the epoch, bumped past the
 * previous value). Within one process every value handed out is also greater than every earlier
 * one, so a resourceVersion names one change and can serve as a watch position (ADR 0080).
 * Clients treat it as opaque; stores compare it for equality only.
 */

import { randomInt } from 'node:crypto';

let lastIssued = 0;

export function nextResourceVersion(now: Date, previous?: string): string {
  const fromClock = now.getTime() * 1000 + randomInt(1000);
  const after = previous !== undefined && /^\d+$/.test(previous) ? Number(previous) + 1 : 0;
  lastIssued = Math.max(fromClock, after, lastIssued + 1);
  return String(lastIssued);
}

/** True for a string nextResourceVersion could have produced. */
export function isResourceVersion(value: string): boolean {
  return /^[1-9][0-9]{0,19}$/.test(value) && Number.isSafeInteger(Number(value));
}

/** Makes every value issued from now on greater than `value` (a store reloaded from its journal). */
export function noteIssuedResourceVersion(value: string): void {
  if (isResourceVersion(value)) lastIssued = Math.max(lastIssued, Number(value));
}
