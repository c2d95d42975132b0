import type { SQSBatchItemFailure, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { CloudEvent } from '../../../shared/contracts/cloud-event-message.js';
import { keyString, type ObjectKey } from '../../../shared/contracts/object.js';
import { kindKey, parseSharedQueueMessage, type ReconcilerInvocation } from '../../../shared/contracts/work-dispatch.js';
import { nextHop, type WorkMessage } from '../../../shared/contracts/work-message.js';
import { type Clock, systemClock } from '../../../shared/ports/clock.js';
import { type Logger, silentLogger } from '../../../shared/ports/logger.js';
import type { ReconcilerInvoker } from '../../../shared/ports/reconciler-invoker.js';
import type { SqsWorkQueue } from '../../../shared/adapters/aws/sqs/sqs-work-queue.js';

/** Work messages per invocation: far below Lambda's 256 KiB asynchronous payload. */
export const MESSAGES_PER_INVOCATION = 100;

export interface DispatchDeps {
  invoker: ReconcilerInvoker;
  /** The shared work queue (delayed hops, re-sends) with every kind's dead-letter queue. */
  queue: Pick<SqsWorkQueue, 'sendDelayed' | 'sendAgain' | 'sendToDeadLetter'>;
  /** `<group>/<Kind>` of every kind that has a reconciler function. */
  kinds: ReadonlySet<string>;
  /** Failed tries before a request is dead-lettered (the reconcilers' MAX_RECEIVE_COUNT). */
  maxAttempts: number;
  /** How long a reconcile holds its object (LEASE_SECONDS): a crashed try is re-sent after it. */
  leaseSeconds: number;
  clock?: Clock;
  logger?: Logger;
}

/** What one kind's reconciler gets from this batch, and which records it came from. */
interface KindWork {
  messages: WorkMessage[];
  /** Requests of a crashed invocation: each runs in an invocation of its own (docs/adr/0111). */
  isolated: WorkMessage[];
  cloudEvents: CloudEvent[];
  records: Set<string>;
}

/**
 * The dispatcher of the shared work queue (docs/adr/0110): reads a batch and invokes each kind's
 * reconciler once (per 100 messages) with that kind's work, asynchronously. Work messages go to
 * their key's kind, cloud events to the kind the rule named, and a cluster's resync message is
 * fanned out per kind as due requests. A delayed message not yet due goes on for its next hop
 * here, without invoking anything. An invocation Lambda gave up on (its on-failure record) has
 * its messages sent again after the lease its crashed try may still hold, counted as a failure;
 * past the last allowed failure they go to their kind's dead-letter queue.
 *
 * A record whose work could not be handed on is reported failed, so SQS delivers it again (and
 * its redrive dead-letters what never can be read).
 */
export async function dispatchSqsBatch(event: SQSEvent, deps: DispatchDeps): Promise<SQSBatchResponse> {
  const logger = deps.logger ?? silentLogger;
  const failed = new Set<string>();
  const byKind = new Map<string, KindWork>();
  const workOf = (kind: string) => {
    let work = byKind.get(kind);
    if (!work) {
      work = { messages: [], isolated: [], cloudEvents: [], records: new Set() };
      byKind.set(kind, work);
    }
    return work;
  };
  for (const record of event.Records) {
    try {
      if (!(await sortRecord(record, deps, workOf))) failed.add(record.messageId);
    } catch (error) {
      logger.error('shared queue message could not be handled', { messageId: record.messageId, error: errorText(error) });
      failed.add(record.messageId);
    }
  }
  await Promise.all(
    [...byKind].map(async ([kind, work]) => {
      try {
        for (const invocation of invocationsOf(kind, work)) await deps.invoker.invoke(invocation);
      } catch (error) {
        logger.error('reconciler invocation not accepted; its messages stay on the queue', { kind, error: errorText(error) });
        for (const id of work.records) failed.add(id);
      }
    }),
  );
  const batchItemFailures: SQSBatchItemFailure[] = event.Records.filter((r) => failed.has(r.messageId)).map((r) => ({ itemIdentifier: r.messageId }));
  return { batchItemFailures };
}

/** Puts a record's work under its kinds, or settles it here; false leaves it on the queue. */
async function sortRecord(record: SQSRecord, deps: DispatchDeps, workOf: (kind: string) => KindWork): Promise<boolean> {
  const logger = deps.logger ?? silentLogger;
  const nowMs = (deps.clock ?? systemClock).now().getTime();
  const message = parseSharedQueueMessage(record.body);
  if (!message) {
    logger.error('unreadable shared queue message; leaving it for the dead-letter queue', { messageId: record.messageId });
    return false;
  }
  switch (message.type) {
    case 'work': {
      const kind = kindKey(message.message.key);
      if (!deps.kinds.has(kind)) return unserved(logger, record, kind);
      const { dueAt, failures, isolate, awaits } = message.message;
      if (dueAt !== undefined && nextHop(dueAt, nowMs) !== 'due') {
        await deps.queue.sendDelayed(message.message.key, dueAt, failures, { isolate: isolate === true, awaits });
        return true;
      }
      add(workOf(kind), record, message.message);
      return true;
    }
    case 'cloudEvent': {
      const kind = kindKey(message.kind);
      if (!deps.kinds.has(kind)) return unserved(logger, record, kind);
      const work = workOf(kind);
      work.cloudEvents.push(message.event);
      work.records.add(record.messageId);
      return true;
    }
    case 'resync':
      for (const key of message.keys) {
        const kind = kindKey(key);
        if (deps.kinds.has(kind)) add(workOf(kind), record, dueNow(key, nowMs));
        else logger.warn('resync of a kind without a reconciler; skipped', { key: keyString(key) });
      }
      return true;
    case 'invocationFailed':
      await resendFailed(message.invocation, message.condition, deps);
      return true;
  }
}

function unserved(logger: Logger, record: SQSRecord, kind: string): false {
  logger.error('no reconciler function for this kind; leaving the message for the dead-letter queue', { messageId: record.messageId, kind });
  return false;
}

function add(work: KindWork, record: SQSRecord, message: WorkMessage): void {
  if (message.isolate) work.isolated.push(message);
  else work.messages.push(message);
  work.records.add(record.messageId);
}

/** A resync key as a request due now: it takes the work record without an enqueue write. */
function dueNow(key: ObjectKey, nowMs: number): WorkMessage {
  return { v: 1, key: { group: key.group, kind: key.kind, namespace: key.namespace, name: key.name }, dueAt: nowMs };
}

function* invocationsOf(kind: string, work: KindWork): Generator<ReconcilerInvocation> {
  const { messages, cloudEvents } = work;
  const count = Math.ceil(messages.length / MESSAGES_PER_INVOCATION);
  for (let i = 0; i < count; i++) {
    yield {
      v: 1,
      kind,
      messages: messages.slice(i * MESSAGES_PER_INVOCATION, (i + 1) * MESSAGES_PER_INVOCATION),
      cloudEvents: i === 0 ? cloudEvents : [],
    };
  }
  if (count === 0 && cloudEvents.length > 0) yield { v: 1, kind, messages: [], cloudEvents };
  for (const message of work.isolated) yield { v: 1, kind, messages: [message], cloudEvents: [] };
}

/**
 * The messages of an invocation that ended in a function error (a crash or a timeout: the
 * reconciler decides every ordinary failure itself), sent again once the lease the crashed try
 * may hold has run out, each to run in an invocation of its own (docs/adr/0111). The failure is
 * counted only when the invocation held that one request: of a batch, no one knows which request
 * crashed it, and counting it against all would dead-letter the innocent with the guilty. An
 * invocation that only waited too long (throttled past its maximum event age) is sent again at
 * once, as it was, without a failure. Cloud events of such an invocation are logged and dropped:
 * the periodic resync catches up.
 */
async function resendFailed(invocation: ReconcilerInvocation, condition: string, deps: DispatchDeps): Promise<void> {
  const logger = deps.logger ?? silentLogger;
  const crashed = condition !== 'EventAgeExceeded';
  const counted = crashed && invocation.messages.length === 1;
  logger.warn('a reconciler invocation failed; sending its requests again', { kind: invocation.kind, condition, messages: invocation.messages.length });
  if (invocation.cloudEvents.length > 0) logger.error('cloud events of a failed invocation dropped', { kind: invocation.kind, count: invocation.cloudEvents.length });
  for (const message of invocation.messages) {
    const failures = (message.failures ?? 0) + (counted ? 1 : 0);
    if (counted && failures >= deps.maxAttempts) {
      if (await deps.queue.sendToDeadLetter(message.key, failures)) continue;
      logger.error('no dead-letter queue for a request that keeps crashing its reconciler', { key: keyString(message.key), failures });
    }
    await deps.queue.sendAgain(message, failures, crashed ? deps.leaseSeconds : 0, { isolate: crashed || message.isolate === true });
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
