import type { Construct } from 'constructs';
import type { DestinationConfig, DestinationOptions, IDestination, IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { grantSend } from './queue-grants.js';

/**
 * An asynchronous invocation's on-failure destination on a KMS-encrypted queue, granted exactly
 * what sending takes (the CDK's `SqsDestination` grants `kms:ReEncrypt*` and
 * `kms:GenerateDataKey*`; capless policies carry no wildcards).
 */
export class EncryptedQueueDestination implements IDestination {
  constructor(
    private readonly queue: IQueue,
    private readonly key: IKey,
  ) {}

  bind(_scope: Construct, fn: IFunction, _options?: DestinationOptions): DestinationConfig {
    grantSend(fn, [this.queue], this.key);
    return { destination: this.queue.queueArn };
  }
}
