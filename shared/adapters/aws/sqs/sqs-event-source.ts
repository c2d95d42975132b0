import {
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { type Logger, silentLogger } from '../../../ports/logger.js';

export interface SqsEventSourceOptions {
  sqs: SQSClient;
  queueUrl: string;
  /** What Lambda would invoke: the reconcile handler's batch logic. */
  handle: (event: SQSEvent) => Promise<SQSBatchResponse>;
  /** Messages per batch, at most 10. Default 10. */
  batchSize?: number;
  /** Long-poll wait. Default 1 s. */
  waitTimeSeconds?: number;
  logger?: Logger;
}

/**
 * Lambda's SQS event source mapping, in process: receive a batch, hand it over as an SQSEvent,
 * delete what did not fail. For embedded mode against an SQS emulator, and for tests.
 */
export class SqsEventSource {
  private running = false;
  private loop: Promise<void> | undefined;
  private busy = false;

  constructor(private readonly options: SqsEventSourceOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Stops after the batch in hand. */
  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  /** True while a batch is being handled. */
  isBusy(): boolean {
    return this.busy;
  }

  private async run(): Promise<void> {
    const logger = this.options.logger ?? silentLogger;
    while (this.running) {
      try {
        await this.pollOnce();
      } catch (error) {
        logger.error('SQS poll failed', { error: error instanceof Error ? error.message : String(error) });
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }

  private async pollOnce(): Promise<void> {
    const { sqs, queueUrl } = this.options;
    const received = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: this.options.batchSize ?? 10,
        WaitTimeSeconds: this.options.waitTimeSeconds ?? 1,
        AttributeNames: ['All'],
      }),
    );
    const messages = uniqueById(received.Messages ?? []);
    if (messages.length === 0) return;
    this.busy = true;
    try {
      const response = await this.options.handle({ Records: messages.map((m) => toRecord(m, queueUrl)) });
      const failed = new Set(response.batchItemFailures.map((f) => f.itemIdentifier));
      const done = messages.filter((m) => m.MessageId && !failed.has(m.MessageId));
      if (done.length > 0) {
        await sqs.send(
          new DeleteMessageBatchCommand({
            QueueUrl: queueUrl,
            Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle ?? '' })),
          }),
        );
      }
    } finally {
      this.busy = false;
    }
  }
}

/** Some emulators repeat a message within one response; Lambda never does. */
function uniqueById(messages: Message[]): Message[] {
  const seen = new Set<string>();
  return messages.filter((m) => {
    if (!m.MessageId || seen.has(m.MessageId)) return false;
    seen.add(m.MessageId);
    return true;
  });
}

function toRecord(message: Message, queueUrl: string): SQSRecord {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? '0',
      SenderId: attributes.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? '0',
    },
    messageAttributes: {},
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueUrl,
    awsRegion: 'local',
  };
}
