import type { ObjectKey } from '../contracts/object.js';

/**
 * What a finished run means for the delayed run its object's work record says is owed
 * (docs/adr/0144): `answered` (it succeeded; nothing delayed is owed any more), `requeued` (it
 * succeeded and asks for one delayed run, whose message awaits this run's lease token), `failed`
 * (a retry, a dead letter or a terminal error: it answers nothing, and what was owed stays owed).
 */
export type RunSettlement = 'answered' | 'requeued' | 'failed';

/**
 * Per-object work state for queues whose transport cannot itself guarantee one reconcile in
 * flight (SQS standard queues): client-go's dirty/processing sets as one small record per
 * object (docs/adr/0002-one-reconcile-in-flight.md), and the one delayed run still owed, which
 * client-go keeps in its waiting heap (docs/adr/0144). Every method is one atomic step.
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
   * steps aside. A delayed message that `awaits` a run's token runs only while the record still
   * owes that run's requeue: a later run answered or replaced it otherwise. false when another run
   * holds the lease (it is marked dirty), a pending message covers this one, or the requeue it
   * carries is no longer owed: the caller drops its message.
   */
  acquire(
    key: ObjectKey,
    lease: { token: string; nowMs: number; leaseMs: number; holdsQueuedMarker: boolean; awaits?: string },
  ): Promise<boolean>;
  /**
   * The run is over, settled as `settlement` says (a `requeued` run's message awaits `token`).
   * `rerun` when enqueues arrived during it: the caller enqueues once more.
   */
  release(key: ObjectKey, token: string, settlement: RunSettlement): Promise<{ rerun: boolean }>;
}
