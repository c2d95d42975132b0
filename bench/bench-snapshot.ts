/** The counters a benchmark phase is measured by, and their arithmetic (after − before, sums). */

import type { WorkCounters } from '../shared/work/work-counters.js';
import { type StoreCounts, storeCountsDelta } from './counting-store.js';

export interface Snapshot {
  store: StoreCounts;
  queue: WorkCounters;
  reconcileMs: number;
  apiRequests: number;
}

export function delta(after: Snapshot, before: Snapshot): Snapshot {
  return {
    store: storeCountsDelta(after.store, before.store),
    queue: {
      enqueued: after.queue.enqueued - before.queue.enqueued,
      coalesced: after.queue.coalesced - before.queue.coalesced,
      alreadyRead: after.queue.alreadyRead - before.queue.alreadyRead,
      processed: after.queue.processed - before.queue.processed,
      failed: after.queue.failed - before.queue.failed,
      deadLettered: after.queue.deadLettered - before.queue.deadLettered,
    },
    reconcileMs: after.reconcileMs - before.reconcileMs,
    apiRequests: after.apiRequests - before.apiRequests,
  };
}

export function addSnapshots(a: Snapshot, b: Snapshot): Snapshot {
  const negated: Snapshot = {
    store: storeCountsDelta({ reads: 0, writes: 0, readUnits: 0, writeUnits: 0, readsByKind: {}, writesByKind: {} }, b.store),
    queue: { enqueued: -b.queue.enqueued, coalesced: -b.queue.coalesced, alreadyRead: -b.queue.alreadyRead, processed: -b.queue.processed, failed: -b.queue.failed, deadLettered: -b.queue.deadLettered },
    reconcileMs: -b.reconcileMs,
    apiRequests: -b.apiRequests,
  };
  return delta(a, negated);
}

