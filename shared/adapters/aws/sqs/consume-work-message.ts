import { keyString, type ObjectKey } from '../../../contracts/object.js';
import { nextHop, type WorkMessage } from '../../../contracts/work-message.js';
import { type Clock, systemClock } from '../../../ports/clock.js';
import { type Logger, silentLogger } from '../../../ports/logger.js';
import type { RequestHandler, RequestOutcome } from '../../../work/request-outcome.js';
import type { RunSettlement, WorkLeases } from '../../../work/work-leases.js';
import type { SqsWorkQueue } from './sqs-work-queue.js';

/** What one try of a work message needs, whether it came from a queue or an invocation. */
export interface WorkMessageDeps {
  queue: SqsWorkQueue;
  leases: WorkLeases;
  /** processRequest bound to its ports. */
  handler: RequestHandler;
  /** How long a run holds its object; at most the queue's visibility timeout. */
  leaseSeconds: number;
  clock?: Clock;
  logger?: Logger;
}

export interface WorkMessageTry {
  /** Identifies this run's lease: unique per delivery. */
  token: string;
  /** Failed tries of this request before this one. */
  failures: number;
  /**
   * When the last allowed failure finds no dead-letter queue configured: what the delivery does
   * instead ('fail' leaves it to the transport's own redrive).
   */
  withoutDeadLetterQueue: () => Promise<'ok' | 'fail'>;
}

/**
 * One try of one work message (docs/adr/0002): a delayed one not yet due goes on for its next
 * hop; otherwise take the object's work record (a requeue a later run answered is dropped there,
 * docs/adr/0144), run processRequest, send a requeue, release (enqueue once more if something
 * asked during the run), and settle the rest on the queue: a backoff as a delayed message, the
 * last allowed failure on the kind's dead-letter queue.
 * Throws when the queue or the work records fail; the caller decides how that delivery retries.
 */
export async function consumeWorkMessage(message: WorkMessage, attempt: WorkMessageTry, deps: WorkMessageDeps): Promise<'ok' | 'fail'> {
  const clock = deps.clock ?? systemClock;
  const key: ObjectKey = message.key;
  if (message.dueAt !== undefined && nextHop(message.dueAt, clock.now().getTime()) !== 'due') {
    await deps.queue.sendDelayed(key, message.dueAt, message.failures, { awaits: message.awaits });
    return 'ok';
  }
  const acquired = await deps.leases.acquire(key, {
    token: attempt.token,
    nowMs: clock.now().getTime(),
    leaseMs: deps.leaseSeconds * 1000,
    holdsQueuedMarker: message.dueAt === undefined,
    awaits: message.awaits,
  });
  if (!acquired) return 'ok';
  const outcome = await runOnce(deps, key, attempt.failures);
  // A requeue is sent before the release names it as owed: should anything fail in between, the
  // record still owes what this message stands for, and this message runs again.
  if (outcome.type === 'requeue') await deps.queue.sendDelayed(key, clock.now().getTime() + outcome.afterSeconds * 1000, undefined, { awaits: attempt.token });
  const { rerun } = await deps.leases.release(key, attempt.token, settlementOf(outcome));
  if (rerun) await deps.queue.enqueue(key);
  return settle(deps, key, outcome, attempt, clock);
}

/**
 * A successful run answers the requeue its object was owed (it read everything anew and decided
 * again); a failed one answers nothing (docs/adr/0144, as the in-process queue: ADR 0137).
 */
function settlementOf(outcome: RequestOutcome): RunSettlement {
  switch (outcome.type) {
    case 'done':
      return 'answered';
    case 'requeue':
      return 'requeued';
    case 'retry':
    case 'deadLetter':
    case 'terminal':
      return 'failed';
  }
}

async function runOnce(deps: WorkMessageDeps, key: ObjectKey, failures: number): Promise<RequestOutcome> {
  try {
    return await deps.handler(key, failures);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    (deps.logger ?? silentLogger).error('request handler threw', { key: keyString(key), error: message });
    return { type: 'retry', afterSeconds: 1, error: message };
  }
}

async function settle(deps: WorkMessageDeps, key: ObjectKey, outcome: RequestOutcome, attempt: WorkMessageTry, clock: Clock): Promise<'ok' | 'fail'> {
  const failuresNow = attempt.failures + 1;
  switch (outcome.type) {
    case 'done':
    case 'terminal':
      return 'ok';
    case 'requeue':
      // Sent before the release (consumeWorkMessage).
      return 'ok';
    case 'retry':
      await deps.queue.sendDelayed(key, clock.now().getTime() + outcome.afterSeconds * 1000, failuresNow);
      return 'ok';
    case 'deadLetter':
      if (await deps.queue.sendToDeadLetter(key, failuresNow)) return 'ok';
      return attempt.withoutDeadLetterQueue();
  }
}
