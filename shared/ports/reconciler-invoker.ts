import type { ReconcilerInvocation } from '../contracts/work-dispatch.js';

/**
 * Starts a kind's reconciler on a batch of work (docs/adr/0110): asynchronously, so the
 * dispatcher never waits for a reconcile. `invoke` resolves once the invocation is accepted (on
 * AWS: Lambda queued the event, which it retries while the function is throttled by its reserved
 * concurrency); it throws when it was not, and the dispatcher leaves the message for redelivery.
 */
export interface ReconcilerInvoker {
  invoke(invocation: ReconcilerInvocation): Promise<void>;
}
