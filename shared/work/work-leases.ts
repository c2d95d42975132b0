import type { ObjectKey } from '../contracts/object.js';

/**
 * Per-object work state for queues whose transport cannot itself guarantee one reconcile in
 * flight (SQS standard queues): client-go's dirty/processing sets as one small record per
 * object (docs/adr/0002-one-reconcile-in-flight.md). Every method is one atomic step.
 */
export interface WorkLeases {
  /**
   * An immediate enqueue. 'send' when the caller must send a message (nothing pending, nothing
   * running); 'coalesced' when a pending message or the running reconcile (now marked dirty)
   * will cover it.
   */
  markQueued(key: ObjectKey, nowMs: number): Promise<'send' | 'coalesced'>;
  /**
   * A message arrived: take the lease for `leaseMs`. `holdsQueuedMarker` is true for the message
   * markQueued sent (it clears the marker); a delayed message that finds another pending message
   * steps aside. false when another run holds the lease (it is marked dirty) or a pending message
   * covers this one: the caller drops its message.
   */
  acquire(key: ObjectKey, lease: { token: string; nowMs: number; leaseMs: number; holdsQueuedMarker: boolean }): Promise<boolean>;
  /** The run is over. `rerun` when enqueues arrived during it: the caller enqueues once more. */
  release(key: ObjectKey, token: string): Promise<{ rerun: boolean }>;
}
