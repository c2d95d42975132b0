/**
 * An SQS event source mapping played the way Lambda's pollers run it
 * (https://docs.aws.amazon.com/lambda/latest/dg/with-sqs.html): long-poll the queue for up to
 * BatchSize messages (they stay invisible for the queue's visibility timeout), invoke the
 * function synchronously with one event, then delete what `decideSqsBatch` says succeeded; the
 * rest returns after the visibility timeout, and the queue's redrive policy dead-letters it. One
 * poller per mapping, so at most one batch in flight (Lambda may run up to MaximumConcurrency).
 */

import { DeleteMessageBatchCommand, type Message, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { decideSqsBatch } from './batch-rules.js';
import type { DeployedFunction } from './deployed-function.js';

export interface SqsMapping {
  uuid: string;
  queueArn: string;
  queueUrl: string;
  batchSize: number;
  reportBatchItemFailures: boolean;
}

/** SQS message attributes in the shape Lambda's event carries them. */
function lambdaAttributes(message: Message) {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(message.MessageAttributes ?? {})) {
    out[name] = {
      ...(value.StringValue === undefined ? {} : { stringValue: value.StringValue }),
      ...(value.BinaryValue === undefined ? {} : { binaryValue: Buffer.from(value.BinaryValue).toString('base64') }),
      stringListValues: value.StringListValues ?? [],
      binaryListValues: (value.BinaryListValues ?? []).map((b) => Buffer.from(b).toString('base64')),
      dataType: value.DataType,
    };
  }
  return out;
}

export class SqsPoller {
  /** Messages handed to the function, batches, and messages left for redelivery. */
  delivered = 0;
  batches = 0;
  kept = 0;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly sqs: SQSClient,
    readonly mapping: SqsMapping,
    readonly fn: DeployedFunction,
    private readonly region: string,
  ) {}

  start(): void {
    this.running ??= this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.pollOnce();
      } catch (error) {
        if (this.stopped) return;
        this.fn.logTail.push(`[sqs poller ${this.mapping.queueArn}] ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  private async pollOnce(): Promise<void> {
    const { mapping } = this;
    const received = await this.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: mapping.queueUrl,
        MaxNumberOfMessages: Math.min(10, mapping.batchSize),
        WaitTimeSeconds: 1,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
    );
    const messages = received.Messages ?? [];
    if (messages.length === 0) return;
    this.batches += 1;
    this.delivered += messages.length;
    const event = {
      Records: messages.map((m) => ({
        messageId: m.MessageId ?? '',
        receiptHandle: m.ReceiptHandle ?? '',
        body: m.Body ?? '',
        attributes: m.Attributes ?? {},
        messageAttributes: lambdaAttributes(m),
        md5OfBody: m.MD5OfBody ?? '',
        eventSource: 'aws:sqs',
        eventSourceARN: mapping.queueArn,
        awsRegion: this.region,
      })),
    };
    const outcome = await this.fn.invoke(event);
    const decision = decideSqsBatch(
      messages.map((m) => m.MessageId ?? ''),
      outcome,
      mapping.reportBatchItemFailures,
    );
    this.kept += decision.keep.length;
    const entries = messages
      .filter((m) => decision.remove.includes(m.MessageId ?? ''))
      .map((m, index) => ({ Id: String(index), ReceiptHandle: m.ReceiptHandle ?? '' }));
    if (entries.length === 0) return;
    const deleted = await this.sqs.send(new DeleteMessageBatchCommand({ QueueUrl: mapping.queueUrl, Entries: entries }));
    if ((deleted.Failed ?? []).length > 0) throw new Error(`DeleteMessageBatch failed: ${JSON.stringify(deleted.Failed)}`);
  }
}
