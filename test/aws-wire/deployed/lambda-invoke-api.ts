/**
 * Lambda's Invoke API for asynchronous invocations (`X-Amz-Invocation-Type: Event`), as the
 * deployed functions call it (the dispatcher, ADR 0110): the request is accepted with 202, and
 * the function runs afterwards in its own environment; an invocation that ends in a function
 * error is retried up to the function's MaximumRetryAttempts and then described on its on-failure
 * destination with the record Lambda writes there
 * (https://docs.aws.amazon.com/lambda/latest/dg/invocation-async-retain-records.html).
 * Synchronous invocations are not emulated (501): nothing in capless makes one. IAM is not
 * checked here; the dispatcher's one grant (lambda:InvokeFunction on the reconcilers) is proven
 * on the synthesized template (test/stacks/control-plane-iam.test.ts).
 */

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { DeployedFunction } from './deployed-function.js';

const INVOKE_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;

export interface AsyncTarget {
  fn: DeployedFunction;
  maxRetries: number;
  /** URL of the on-failure destination queue, if any. */
  onFailureQueueUrl: string | undefined;
}

export interface LambdaInvokeCounters {
  accepted: number;
  /** Invocations that ended in an error after their retries, and how many went to a destination. */
  failed: number;
  sentOnFailure: number;
}

export class LambdaInvokeApi {
  readonly counters: LambdaInvokeCounters = { accepted: 0, failed: 0, sentOnFailure: 0 };
  private server: Server | undefined;
  private readonly running = new Set<Promise<void>>();

  constructor(
    /** The function a name or ARN in the request path names. */
    private readonly targetOf: (nameOrArn: string) => AsyncTarget | undefined,
    private readonly sqs: SQSClient,
  ) {}

  async listen(): Promise<string> {
    const server = createServer((req, res) => {
      this.accept(req).then(
        ({ status, body }) => res.writeHead(status, { 'content-type': 'application/json' }).end(body),
        (error: unknown) => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ Message: String(error) })),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('the Lambda API is not listening on a TCP port');
    return `http://127.0.0.1:${address.port}`;
  }

  /** Asynchronous invocations accepted and not finished (retries and destination included). */
  pending(): number {
    return this.running.size;
  }

  private async accept(req: IncomingMessage): Promise<{ status: number; body: string }> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    const match = INVOKE_PATH.exec(new URL(req.url ?? '/', 'http://lambda').pathname);
    if (req.method !== 'POST' || !match) return { status: 404, body: JSON.stringify({ Type: 'User', Message: `no such Lambda operation: ${req.method} ${req.url}` }) };
    if (req.headers['x-amz-invocation-type'] !== 'Event') return { status: 501, body: JSON.stringify({ Message: 'only asynchronous (Event) invocations are emulated' }) };
    const target = this.targetOf(decodeURIComponent(match[1] ?? ''));
    if (!target) return { status: 404, body: JSON.stringify({ Type: 'User', Message: `Function not found: ${match[1]}` }) };
    const payload: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
    this.counters.accepted += 1;
    const run = this.runAsync(target, payload).finally(() => this.running.delete(run));
    this.running.add(run);
    return { status: 202, body: '' };
  }

  private async runAsync(target: AsyncTarget, payload: unknown): Promise<void> {
    const requestId = randomUUID();
    let attempts = 0;
    for (;;) {
      attempts += 1;
      const result = await target.fn.invoke(payload);
      if (result.ok) return;
      if (attempts <= target.maxRetries) continue;
      this.counters.failed += 1;
      if (!target.onFailureQueueUrl) return;
      const record = {
        version: '1.0',
        timestamp: new Date().toISOString(),
        requestContext: { requestId, functionArn: `${target.fn.spec.arn}:$LATEST`, condition: 'RetriesExhausted', approximateInvokeCount: attempts },
        requestPayload: payload,
        responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
        responsePayload: result.error,
      };
      await this.sqs.send(new SendMessageCommand({ QueueUrl: target.onFailureQueueUrl, MessageBody: JSON.stringify(record) }));
      this.counters.sentOnFailure += 1;
      return;
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.running]);
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
