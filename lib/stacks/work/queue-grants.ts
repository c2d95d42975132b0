import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';

/**
 * Send to KMS-encrypted queues with exactly the actions it takes. (`IQueue.grantSendMessages`
 * also grants `kms:ReEncrypt*` and `kms:GenerateDataKey*`; capless policies carry no wildcards.)
 */
export function grantSend(grantee: IGrantable, queues: readonly IQueue[], key: IKey): Grant {
  key.grant(grantee, 'kms:GenerateDataKey', 'kms:Decrypt');
  return Grant.addToPrincipal({
    grantee,
    actions: ['sqs:SendMessage', 'sqs:GetQueueAttributes'],
    resourceArns: queues.map((queue) => queue.queueArn),
  });
}
