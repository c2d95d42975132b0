/** What a queue counts; the benchmark reports these. */
export interface WorkCounters {
  /** enqueue calls (each request of enqueueMany counts once). */
  enqueued: number;
  /** enqueue calls absorbed by a request already pending for the same object. */
  coalesced: number;
  /** change requests dropped because the object's reconcile had already read the changed version (ADR 0137). */
  alreadyRead: number;
  /** reconcile tries started. */
  processed: number;
  /** tries that failed (transient, final or terminal). */
  failed: number;
  /** requests moved to the dead-letter list after the last allowed failure. */
  deadLettered: number;
}

export function emptyCounters(): WorkCounters {
  return { enqueued: 0, coalesced: 0, alreadyRead: 0, processed: 0, failed: 0, deadLettered: 0 };
}

/** Nearest-rank percentile of `samples` (p in 0..100); undefined when there are none. */
export function percentile(samples: readonly number[], p: number): number | undefined {
  if (samples.length === 0) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}
