import { groupKindString, keyString, sameGroupKind } from '../../../contracts/object.js';
import type { WorkMessage } from '../../../contracts/work-message.js';
import { parseKindKey, type ReconcilerInvocation } from '../../../contracts/work-dispatch.js';
import { silentLogger } from '../../../ports/logger.js';
import { consumeWorkMessage } from '../sqs/consume-work-message.js';
import { enqueueConcerned, type SqsConsumerDeps } from '../sqs/sqs-batch-consumer.js';

export type InvocationConsumerDeps = SqsConsumerDeps;

/**
 * Tries of one invocation that run at once: as many as an SQS batch held on a kind's own queue
 * (ADR 0003), so an invocation of 100 requests does not start 100 reconciles (and their cloud
 * calls) together.
 */
export const TRIES_AT_ONCE = 10;

/** How many messages of one invocation did what. */
export interface InvocationResult {
  reconciled: number;
  /** Tries that could not finish (the queue or the work records failed) and were sent again, delayed. */
  resent: number;
  /** Messages refused because they name another kind than the function serves. */
  refused: number;
}

/**
 * One asynchronous invocation of a kind's reconciler by the dispatcher (docs/adr/0110): every
 * work message is one try with the same rules as a message on a kind's own queue (the work
 * records, processRequest, requeues and backoff as delayed messages on the shared queue, the last
 * allowed failure on the kind's dead-letter queue), and every cloud event becomes enqueues of the
 * objects it concerns.
 *
 * A try that cannot finish because the queue or the work records failed is sent again as a
 * delayed message after the lease it may hold (with its failure counted). Only when even that,
 * or a refused message, cannot be handed on does the invocation throw: Lambda then delivers it
 * to the on-failure destination (the shared queue), where the dispatcher re-sends its messages.
 */
export async function processInvocation(invocation: ReconcilerInvocation, requestId: string, deps: InvocationConsumerDeps): Promise<InvocationResult> {
  const logger = deps.logger ?? silentLogger;
  const result: InvocationResult = { reconciled: 0, resent: 0, refused: 0 };
  const problems: string[] = [];
  const named = parseKindKey(invocation.kind);
  if (deps.kind && !(named && sameGroupKind(named, deps.kind))) {
    logger.error('an invocation for another kind: the dispatcher wiring is wrong', { invocationKind: invocation.kind, serves: groupKindString(deps.kind) });
    throw new Error(`refused an invocation for ${invocation.kind}: this function serves ${groupKindString(deps.kind)}`);
  }
  const tryOne = async (message: WorkMessage, index: number) => {
    if (deps.kind && !sameGroupKind(message.key, deps.kind)) {
      result.refused += 1;
      logger.error('reconcile request for another kind: the dispatcher wiring is wrong', { key: keyString(message.key), serves: groupKindString(deps.kind) });
      problems.push(`refused ${keyString(message.key)}: this function serves ${groupKindString(deps.kind)}`);
      return;
    }
    try {
      const settled = await consumeWorkMessage(
        message,
        { token: `${requestId}:${index}`, failures: message.failures ?? 0, withoutDeadLetterQueue: async () => 'fail' },
        deps,
      );
      if (settled === 'fail') problems.push(`no dead-letter queue for ${keyString(message.key)}`);
      else result.reconciled += 1;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      logger.error('reconcile try could not finish; sending it again after its lease', { key: keyString(message.key), error: reason });
      if (await resendAfterLease(message, deps)) result.resent += 1;
      else problems.push(`${keyString(message.key)}: ${reason}`);
    }
  };
  const events = invocation.cloudEvents.map(async (event) => {
    if (!deps.cloudEvents) {
      problems.push(`a cloud event from ${event.source}, but ${invocation.kind} maps none`);
      return;
    }
    if ((await enqueueConcerned(event, deps.cloudEvents, deps.queue, logger)) === 'fail') problems.push(`a cloud event from ${event.source} could not be mapped`);
  });
  await Promise.all([inPool(invocation.messages, TRIES_AT_ONCE, tryOne), ...events]);
  if (problems.length > 0) throw new Error(`${problems.length} of the invocation's work could not be handed on: ${problems.slice(0, 3).join('; ')}`);
  return result;
}

async function resendAfterLease(message: WorkMessage, deps: InvocationConsumerDeps): Promise<boolean> {
  try {
    await deps.queue.sendAgain(message, (message.failures ?? 0) + 1, deps.leaseSeconds);
    return true;
  } catch {
    return false;
  }
}

/** Runs `work` on every item, at most `size` at once. */
async function inPool<T>(items: readonly T[], size: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      const item = items[index];
      if (item !== undefined) await work(item, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}
