import type { DlqDestinationConfig, IEventSourceDlq, IEventSourceMapping, IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { Validations } from 'aws-cdk-lib';
import { encryptedQueue } from './encrypted-queue.js';
import { grantSend } from './queue-grants.js';

/**
 * Where Lambda puts a description of stream batches the router gave up on (after its retries or
 * past the maximum record age). The messages name shard and sequence numbers, not the records;
 * the periodic resync re-enqueues the objects, and the depth alarm tells an operator.
 */
export class StreamFailureQueue extends Construct implements IEventSourceDlq {
  readonly queue: Queue;
  private readonly key: IKey;

  constructor(scope: Construct, id: string, props: { key: IKey }) {
    super(scope, id);
    this.key = props.key;
    this.queue = encryptedQueue(this, 'Queue', { key: props.key });
    Validations.of(this.queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself a dead-letter store: the on-failure destination of the stream router.',
    });
  }

  bind(_target: IEventSourceMapping, targetHandler: IFunction): DlqDestinationConfig {
    grantSend(targetHandler, [this.queue], this.key);
    return { destination: this.queue.queueArn };
  }
}
