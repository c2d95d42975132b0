/**
 * How long a phase that waits for something to be gone sleeps before it looks again by itself.
 * The wait is event-driven: the awaited object's removal reaches the waiter through a watch (an
 * owner watch, or a `clusterLabel` watch narrowed to `REMOVE`). This requeue is only the safety
 * net for a change that never arrived (a lost message, a crash between the removal and the
 * enqueue), well under the 10-minute resync that would also catch it.
 */
export const WAIT_SAFETY_NET_SECONDS = 300;
