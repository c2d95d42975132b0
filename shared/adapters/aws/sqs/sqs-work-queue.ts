import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { groupKindString, type ObjectKey } from '../../../contracts/object.js';
import type { ResyncMessage } from '../../../contracts/work-dispatch.js';
import { nextHop, SQS_MAX_DELAY_SECONDS, type WorkMessage } from '../../../contracts/work-message.js';
import { type Clock, systemClock } from '../../../ports/clock.js';
import type { EnqueueOptions, ReconcileRequest, WorkQueue } from '../../../ports/work-queue.js';
import type { WorkLeases } from '../../../work/work-leases.js';
import { queueMapKey } from './queue-urls.js';

export interface SqsWorkQueueOptions {
  sqs: SQSClient;
  /** Standard queue URL per reconciled kind, by `<group>/<Kind>` (ADR 0003's topology). */
  queueUrls?: Readonly<Record<string, string>>;
  /**
   * The one shared work queue every kind's requests go to (ADR 0110's topology; the message
   * names the kind, the dispatcher routes by it). Takes precedence over `queueUrls`.
   */
  sharedQueueUrl?: string;
  /** Each kind's dead-letter queue URL, by `<group>/<Kind>`. */
  deadLetterUrls?: Readonly<Record<string, string>>;
  leases: WorkLeases;
  clock?: Clock;
  /** Longest single delay; SQS allows 900 s. Tests shorten it to exercise the chaining. */
  maxHopSeconds?: number;
}

const SEND_BATCH = 10;

/**
 * WorkQueue on standard SQS queues (docs/adr/0002-one-reconcile-in-flight.md): one per kind, or
 * one shared by every kind (docs/adr/0110-work-topology-at-rest-cost.md).
 * An immediate enqueue sends a message only when the object's work record says nothing is
 * pending or running (WorkLeases.markQueued); a delayed one sends a message carrying its due
 * time, re-sent in hops of at most 900 s by the consumer until due.
 */
export class SqsWorkQueue implements WorkQueue {
  private readonly clock: Clock;
  private readonly maxHopSeconds: number;

  constructor(private readonly options: SqsWorkQueueOptions) {
    this.clock = options.clock ?? systemClock;
    this.maxHopSeconds = options.maxHopSeconds ?? SQS_MAX_DELAY_SECONDS;
  }

  async enqueue(request: ReconcileRequest, options: EnqueueOptions = {}): Promise<void> {
    const delaySeconds = options.delaySeconds ?? 0;
    const nowMs = this.clock.now().getTime();
    if (delaySeconds > 0) {
      await this.sendDelayed(request, nowMs + delaySeconds * 1000);
      return;
    }
    if ((await this.options.leases.markQueued(request, nowMs)) === 'send') {
      await this.send(request, message(request));
    }
  }

  /** Immediate enqueues; the messages of those that need one go out in batches of ten per queue. */
  async enqueueMany(requests: readonly ReconcileRequest[]): Promise<void> {
    const nowMs = this.clock.now().getTime();
    const toSend: ReconcileRequest[] = [];
    for (const request of requests) {
      if ((await this.options.leases.markQueued(request, nowMs)) === 'send') toSend.push(request);
    }
    const byQueue = new Map<string, ReconcileRequest[]>();
    for (const request of toSend) {
      const url = this.urlFor(request);
      byQueue.set(url, [...(byQueue.get(url) ?? []), request]);
    }
    for (const [url, batch] of byQueue) {
      for (let i = 0; i < batch.length; i += SEND_BATCH) {
        const entries = batch.slice(i, i + SEND_BATCH).map((request, index) => ({
          Id: String(index),
          MessageBody: JSON.stringify(message(request)),
        }));
        const result = await this.options.sqs.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: entries }));
        if (result.Failed && result.Failed.length > 0) {
          throw new Error(`SendMessageBatch failed for ${result.Failed.length} message(s): ${result.Failed[0]?.Message}`);
        }
      }
    }
  }

  /**
   * Sends (or re-sends) a delayed request: one hop of at most maxHopSeconds toward `dueAt`.
   * `failures` rides along on the retry of a failed request, `awaits` on a requeue (the lease
   * token of the run that asked for it, which the work record names until a later run answers it).
   */
  async sendDelayed(request: ObjectKey, dueAt: number, failures?: number, options: { isolate?: boolean; awaits?: string } = {}): Promise<void> {
    const hop = nextHop(dueAt, this.clock.now().getTime(), this.maxHopSeconds);
    const body = { ...message(request, dueAt, failures, options.awaits), ...(options.isolate ? { isolate: true as const } : {}) };
    await this.send(request, body, delaySecondsOf(hop));
  }

  /**
   * Sends a work message again after `delaySeconds`, keeping what it is: an immediate message
   * still stands for the work record's queued marker (so it must not turn into a delayed one,
   * which would step aside for that very marker); a delayed one becomes due after the delay and
   * still awaits the run it awaited.
   */
  async sendAgain(previous: WorkMessage, failures: number, delaySeconds: number, options: { isolate?: boolean } = {}): Promise<void> {
    const nowMs = this.clock.now().getTime();
    const dueAt = previous.dueAt === undefined ? undefined : nowMs + delaySeconds * 1000;
    const body = { ...message(previous.key, dueAt, failures, previous.awaits), ...(options.isolate ? { isolate: true as const } : {}) };
    const firstHop = dueAt === undefined ? Math.ceil(delaySeconds) : delaySecondsOf(nextHop(dueAt, nowMs, this.maxHopSeconds));
    await this.send(previous.key, body, Math.min(this.maxHopSeconds, Math.max(0, firstHop)));
  }

  /** Sends resync messages (one per cluster) to the shared work queue, ten per request. */
  async sendResync(messages: readonly ResyncMessage[]): Promise<void> {
    const url = this.options.sharedQueueUrl;
    if (!url) throw new Error('a batched resync needs the shared work queue (WORK_QUEUE_URL)');
    for (let i = 0; i < messages.length; i += SEND_BATCH) {
      const entries = messages.slice(i, i + SEND_BATCH).map((body, index) => ({ Id: String(index), MessageBody: JSON.stringify(body) }));
      const result = await this.options.sqs.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: entries }));
      if (result.Failed && result.Failed.length > 0) {
        throw new Error(`SendMessageBatch failed for ${result.Failed.length} resync message(s): ${result.Failed[0]?.Message}`);
      }
    }
  }

  /** Puts a request on its kind's dead-letter queue; false when none is configured. */
  async sendToDeadLetter(request: ObjectKey, failures: number): Promise<boolean> {
    const url = this.options.deadLetterUrls?.[queueMapKey(request)];
    if (!url) return false;
    const body = message(request, undefined, failures);
    await this.options.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: JSON.stringify(body) }));
    return true;
  }

  /** Re-exposes a received message at once (its redrive policy then counts the receive). */
  async releaseMessage(kind: ObjectKey, receiptHandle: string): Promise<void> {
    await this.options.sqs.send(
      new ChangeMessageVisibilityCommand({ QueueUrl: this.urlFor(kind), ReceiptHandle: receiptHandle, VisibilityTimeout: 0 }),
    );
  }

  urlFor(kind: ObjectKey): string {
    if (this.options.sharedQueueUrl) return this.options.sharedQueueUrl;
    const url = this.options.queueUrls?.[queueMapKey(kind)];
    if (!url) throw new Error(`no queue for ${groupKindString(kind)}: QUEUE_URLS has no "${queueMapKey(kind)}"`);
    return url;
  }

  private async send(request: ObjectKey, body: WorkMessage, delaySeconds = 0): Promise<void> {
    await this.options.sqs.send(
      new SendMessageCommand({
        QueueUrl: this.urlFor(request),
        MessageBody: JSON.stringify(body),
        ...(delaySeconds > 0 ? { DelaySeconds: delaySeconds } : {}),
      }),
    );
  }
}

function delaySecondsOf(hop: 'due' | { delaySeconds: number }): number {
  return hop === 'due' ? 0 : hop.delaySeconds;
}

function message(request: ObjectKey, dueAt?: number, failures?: number, awaits?: string): WorkMessage {
  const key = { group: request.group, kind: request.kind, namespace: request.namespace, name: request.name };
  return {
    v: 1,
    key,
    ...(dueAt === undefined ? {} : { dueAt }),
    ...(failures === undefined || failures === 0 ? {} : { failures }),
    ...(dueAt === undefined || awaits === undefined ? {} : { awaits }),
  };
}
