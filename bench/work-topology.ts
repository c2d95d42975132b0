/**
 * How reconcile requests reach the reconciler functions on AWS, as far as the cost model cares
 * (ADR 0110): which queues Lambda long-polls even when nothing happens, whether a dispatcher
 * invocation sits in front of every message, and how the resync sends its requests.
 */
export interface WorkTopology {
  readonly name: 'queue-per-kind' | 'shared-queue';
  /** SQS queues an event-source mapping long-polls, idle or not. */
  readonly polledQueues: number;
  /** A dispatcher function receives every message and invokes the kind's reconciler function. */
  readonly dispatcher: boolean;
  /** The resync sends one message per object, or one per cluster. */
  readonly resyncBatching: 'per-object' | 'per-cluster';
}

/** ADR 0003: one standard queue (and one event-source mapping) per reconciled kind. */
export function queuePerKindTopology(reconciledKinds: number): WorkTopology {
  return { name: 'queue-per-kind', polledQueues: reconciledKinds, dispatcher: false, resyncBatching: 'per-object' };
}

/**
 * ADR 0110: one shared work queue polled by one dispatcher that invokes each kind's own function
 * asynchronously (its role, its reserved concurrency); the resync sends one message per cluster.
 */
export function sharedQueueTopology(): WorkTopology {
  return { name: 'shared-queue', polledQueues: 1, dispatcher: true, resyncBatching: 'per-cluster' };
}

export function describeTopology(t: WorkTopology): string {
  const dispatch = t.dispatcher ? 'a dispatcher invocation per message' : 'no dispatcher';
  return `topology ${t.name}: ${t.polledQueues} polled queue(s), ${dispatch}, resync one message per ${t.resyncBatching === 'per-object' ? 'object' : 'cluster'}`;
}
