import { Duration } from 'aws-cdk-lib';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { type DeadLetterQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/** How long messages stay in any capless queue (the SQS maximum): time to look at a DLQ. */
const RETENTION = Duration.days(14);
/** SQS reuses a data key this long, so KMS is called about once an hour per queue, not per message. */
const DATA_KEY_REUSE = Duration.hours(1);

export interface EncryptedQueueOptions {
  readonly key: IKey;
  /** @default 30 seconds (the SQS default) */
  readonly visibilityTimeout?: Duration;
  /** @default no dead-letter queue: the queue is itself where failures land */
  readonly deadLetterQueue?: DeadLetterQueue;
}

/** A standard SQS queue, encrypted with the control plane's key and reachable over TLS only. */
export function encryptedQueue(scope: Construct, id: string, options: EncryptedQueueOptions): Queue {
  return new Queue(scope, id, {
    encryption: QueueEncryption.KMS,
    encryptionMasterKey: options.key,
    dataKeyReuse: DATA_KEY_REUSE,
    enforceSSL: true,
    retentionPeriod: RETENTION,
    visibilityTimeout: options.visibilityTimeout,
    deadLetterQueue: options.deadLetterQueue,
  });
}
