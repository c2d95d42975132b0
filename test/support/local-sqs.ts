import type { Server } from 'node:http';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { createSqsServer } from 'local-aws-sqs';
import { freePort } from '../aws-wire/setup/free-port.js';

export interface LocalSqs {
  endpoint: string;
  client: SQSClient;
  close(): Promise<void>;
}

/** local-aws-sqs in this process (it needs an explicit port) and a client for it. */
export async function startLocalSqs(): Promise<LocalSqs> {
  const port = await freePort();
  const server: Server = await createSqsServer({ port, hostname: '127.0.0.1' });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new SQSClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  return {
    endpoint,
    client,
    close: async () => {
      client.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A standard work queue with its dead-letter queue (redrive after maxReceiveCount receives). */
export async function createWorkQueuePair(
  client: SQSClient,
  name: string,
  options: { maxReceiveCount: number; visibilityTimeoutSeconds: number },
): Promise<{ url: string; deadLetterUrl: string }> {
  const dlq = await client.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
  const deadLetterUrl = dlq.QueueUrl ?? '';
  const attributes = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: deadLetterUrl, AttributeNames: ['QueueArn'] }),
  );
  const queue = await client.send(
    new CreateQueueCommand({
      QueueName: name,
      Attributes: {
        VisibilityTimeout: String(options.visibilityTimeoutSeconds),
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: attributes.Attributes?.QueueArn,
          maxReceiveCount: options.maxReceiveCount,
        }),
      },
    }),
  );
  return { url: queue.QueueUrl ?? '', deadLetterUrl };
}
