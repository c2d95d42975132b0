import type { ReconcilerInvocation } from '../../../contracts/work-dispatch.js';
import type { ReconcilerInvoker } from '../../../ports/reconciler-invoker.js';

/** A kind's reconciler entry point in this process: what its Lambda handler would run. */
export type InvocationHandler = (invocation: ReconcilerInvocation, requestId: string) => Promise<void>;

export interface InMemoryReconcilerInvokerOptions {
  /** Handlers by `<group>/<Kind>`; an invocation for any other kind is refused. */
  handlers: Readonly<Record<string, InvocationHandler>>;
  /**
   * What Lambda does with an invocation that ended in an error (its on-failure destination).
   * Default: nothing, the failure is only counted.
   */
  onFailure?: (invocation: ReconcilerInvocation, error: unknown) => Promise<void>;
}

/**
 * ReconcilerInvoker in one process, shaped like Lambda's asynchronous invocation: `invoke`
 * returns once the invocation is accepted and the handler runs afterwards, on its own; a handler
 * that throws goes to `onFailure`, as an invocation goes to its on-failure destination.
 */
export class InMemoryReconcilerInvoker implements ReconcilerInvoker {
  /** Invocations accepted, and how many ended in an error. */
  accepted = 0;
  failed = 0;
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly options: InMemoryReconcilerInvokerOptions) {}

  async invoke(invocation: ReconcilerInvocation): Promise<void> {
    const handler = this.options.handlers[invocation.kind];
    if (!handler) throw new Error(`no reconciler for ${invocation.kind}`);
    this.accepted += 1;
    const requestId = `in-memory-${this.accepted}`;
    const run = Promise.resolve()
      .then(() => handler(invocation, requestId))
      .catch(async (error: unknown) => {
        this.failed += 1;
        await this.options.onFailure?.(invocation, error);
      })
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  /** True while an accepted invocation has not finished. */
  isBusy(): boolean {
    return this.running.size > 0;
  }

  /** Waits until every accepted invocation (and those they led to) has finished. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
