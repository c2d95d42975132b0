import type { ObjectKey } from '../contracts/object.js';

/** What a reconcile request carries: only the object's key (ARCHITECTURE.md "The flow"). */
export type ReconcileRequest = ObjectKey;

/** One stored version of one object: what a change made, and what a reconcile read. */
export interface ObjectVersion {
  uid: string;
  resourceVersion: string;
}

export interface EnqueueOptions {
  /** Delay before the request becomes visible; any length (SQS stops at 900 s, the queue chains). */
  delaySeconds?: number;
}

export interface CausedEnqueueOptions {
  /**
   * The version a change made that asks for these reconciles (the router's requests). A queue may
   * drop a request whose object's running reconcile reads that version or a later one
   * (ADR 0137); a request without a cause is never dropped.
   */
  cause?: ObjectVersion;
}

/**
 * Where reconcile requests go. Semantics every implementation meets
 * (test/conformance/work-queue.conformance.ts): one reconcile in flight per object, bursts
 * coalesced, delays of any length, exponential backoff, dead-letter after N failures. A queue that
 * remembers what a reconcile read (the in-process one) may also drop a change's request that the
 * object's reconcile has already seen (ADR 0137).
 */
export interface WorkQueue {
  enqueue(request: ReconcileRequest, options?: EnqueueOptions): Promise<void>;
  enqueueMany(requests: readonly ReconcileRequest[], options?: CausedEnqueueOptions): Promise<void>;
}
