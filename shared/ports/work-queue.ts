import type { ObjectKey } from '../contracts/object.js';

/** What a reconcile request carries: only the object's key (ARCHITECTURE.md "The flow"). */
export type ReconcileRequest = ObjectKey;

export interface EnqueueOptions {
  /** Delay before the request becomes visible; any length (SQS stops at 900 s, the queue chains). */
  delaySeconds?: number;
}

/**
 * Where reconcile requests go. Semantics every implementation meets
 * (test/conformance/work-queue.conformance.ts): one reconcile in flight per object, bursts
 * coalesced, delays of any length, exponential backoff, dead-letter after N failures.
 */
export interface WorkQueue {
  enqueue(request: ReconcileRequest, options?: EnqueueOptions): Promise<void>;
  enqueueMany(requests: readonly ReconcileRequest[]): Promise<void>;
}
