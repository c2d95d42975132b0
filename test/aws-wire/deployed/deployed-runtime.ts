/**
 * Plays Lambda's and API Gateway's part for a stack deployed to moto: every function of the stack
 * in its own process from its bundled code, every enabled event source mapping as a poller,
 * asynchronous invocations with their on-failure destinations (Lambda's Invoke API on a local
 * port), the HTTP API's routes on a local port, and the schedules' targets on demand (`runSchedules`).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { stringAt, valueAt } from '../../../shared/contracts/json.js';
import type { DeployedStack } from './deploy-to-moto.js';
import { DeployedFunction, type InvokeResult } from './deployed-function.js';
import { HttpApi, type IamCaller } from './http-api.js';
import { type AsyncTarget, LambdaInvokeApi } from './lambda-invoke-api.js';
import { MOTO_ADMIN, MOTO_REGION, type MotoApi } from './moto-api.js';
import type { Credentials } from './sigv4.js';
import { SqsPoller } from './sqs-poller.js';
import { queueUrlOf, readDeployedStack } from './stack-reader.js';
import { StreamPoller } from './stream-poller.js';
import { readAsyncInvokeConfigs, readHttpApiRoutes, readScheduleTargets } from './template-reader.js';
import { referencesIn } from './template-refs.js';

export interface RuntimeOptions {
  /** Callers the HTTP API's IAM routes accept. */
  callers: readonly IamCaller[];
  /** Credentials a function runs with, from its role ARN (default: moto's admin keys). */
  credentialsFor?: (roleArn: string) => Promise<Credentials>;
  /** Credentials of the runtime's own calls (pollers, probes); default: moto's admin keys. */
  serviceCredentials?: Credentials;
}

export interface QueueDepth {
  logicalId: string;
  visible: number;
  inFlight: number;
}

export class DeployedRuntime {
  private constructor(
    readonly stack: DeployedStack,
    readonly functions: Map<string, DeployedFunction>,
    readonly sqsPollers: SqsPoller[],
    readonly streamPollers: StreamPoller[],
    readonly api: HttpApi,
    readonly apiUrl: string,
    readonly lambda: LambdaInvokeApi,
    private readonly sqs: SQSClient,
    private readonly streams: DynamoDBStreamsClient,
    private readonly codeRoot: string,
  ) {}

  static async start(moto: MotoApi, stack: DeployedStack, options: RuntimeOptions): Promise<DeployedRuntime> {
    const clientConfig = { endpoint: moto.endpoint, region: MOTO_REGION, credentials: options.serviceCredentials ?? MOTO_ADMIN };
    const sqs = new SQSClient(clientConfig);
    const streams = new DynamoDBStreamsClient(clientConfig);
    const codeRoot = mkdtempSync(join(tmpdir(), 'capless-deployed-code-'));
    const read = await readDeployedStack(moto, sqs, stack, codeRoot);
    const functions = new Map<string, DeployedFunction>();
    const asyncTargets = new Map<string, AsyncTarget>();
    const lambda = new LambdaInvokeApi((nameOrArn) => asyncTargets.get(nameOrArn), sqs);
    const runtime = { endpoint: moto.endpoint, lambdaEndpoint: await lambda.listen(), region: MOTO_REGION };
    for (const spec of read.functions) {
      const credentials = options.credentialsFor ? await options.credentialsFor(spec.role) : MOTO_ADMIN;
      functions.set(spec.logicalId, new DeployedFunction(spec, runtime, credentials));
    }
    const configs = new Map(readAsyncInvokeConfigs(stack.synthesized).map((c) => [c.functionLogicalId, c]));
    for (const fn of functions.values()) {
      const config = configs.get(fn.spec.logicalId);
      const onFailure = config?.onFailureQueueLogicalId ? stack.resources.get(config.onFailureQueueLogicalId)?.physicalId : undefined;
      const target: AsyncTarget = {
        fn,
        maxRetries: config?.maxRetries ?? 2,
        onFailureQueueUrl: onFailure === undefined ? undefined : onFailure.startsWith('http') ? onFailure : await queueUrlOf(sqs, `arn:aws:sqs:${MOTO_REGION}:${stack.accountId}:${onFailure}`),
      };
      asyncTargets.set(fn.spec.name, target);
      asyncTargets.set(fn.spec.arn, target);
    }
    const byArn = new Map([...functions.values()].map((fn) => [fn.spec.arn, fn]));
    const sqsPollers: SqsPoller[] = [];
    const streamPollers: StreamPoller[] = [];
    for (const { functionArn, mapping } of read.mappings) {
      const fn = byArn.get(functionArn);
      if (!fn) throw new Error(`event source mapping ${mapping.uuid} names ${functionArn}, which is not a function of the stack`);
      if (mapping.source === 'sqs') sqsPollers.push(new SqsPoller(sqs, mapping, fn, MOTO_REGION));
      else streamPollers.push(new StreamPoller(streams, sqs, mapping, fn, MOTO_REGION));
    }
    const api = new HttpApi(readHttpApiRoutes(stack.synthesized), functions, options.callers, stack.accountId, MOTO_REGION);
    const apiUrl = await api.listen();
    for (const poller of [...sqsPollers, ...streamPollers]) poller.start();
    return new DeployedRuntime(stack, functions, sqsPollers, streamPollers, api, apiUrl, lambda, sqs, streams, codeRoot);
  }

  /** Runs every schedule's target once now, with the event EventBridge Scheduler sends (the periodic resync). */
  async runSchedules(): Promise<{ schedule: string; result: InvokeResult }[]> {
    const results: { schedule: string; result: InvokeResult }[] = [];
    for (const target of readScheduleTargets(this.stack.synthesized)) {
      const fn = this.functions.get(target.functionLogicalId);
      if (!fn) throw new Error(`schedule ${target.logicalId} targets ${target.functionLogicalId}, which is not deployed`);
      results.push({ schedule: target.logicalId, result: await fn.invoke({}) });
    }
    return results;
  }

  /** Messages in every dead-letter queue (redrive targets, the queues of DEAD_LETTER_QUEUE_URLS) and every stream on-failure destination. */
  async deadLetterDepths(): Promise<QueueDepth[]> {
    const logicalIds = new Set<string>();
    for (const resource of Object.values(this.stack.synthesized.Resources)) {
      if (resource.Type === 'AWS::SQS::Queue') for (const id of referencesIn(valueAt(resource.Properties, 'RedrivePolicy'))) logicalIds.add(id);
      // The per-kind dead-letter queues reconcilers (and the dispatcher) send to directly (ADR 0002, 0110).
      if (resource.Type === 'AWS::Lambda::Function') for (const id of referencesIn(valueAt(resource.Properties, 'Environment', 'Variables', 'DEAD_LETTER_QUEUE_URLS'))) logicalIds.add(id);
    }
    for (const poller of this.streamPollers) if (poller.mapping.onFailureQueueUrl) logicalIds.add(this.logicalIdOfQueueUrl(poller.mapping.onFailureQueueUrl));
    return Promise.all([...logicalIds].map((id) => this.queueDepth(id)));
  }

  private logicalIdOfQueueUrl(url: string): string {
    const name = url.split('/').pop() ?? '';
    for (const resource of this.stack.resources.values()) {
      if (resource.type === 'AWS::SQS::Queue' && (resource.physicalId === url || resource.physicalId.endsWith(`/${name}`) || resource.physicalId === name)) return resource.logicalId;
    }
    return name;
  }

  /** Messages in one queue of the stack, by logical id. */
  queueDepthOf(logicalId: string): Promise<QueueDepth> {
    return this.queueDepth(logicalId);
  }

  private async queueDepth(logicalId: string): Promise<QueueDepth> {
    const physical = this.stack.resources.get(logicalId)?.physicalId ?? '';
    const url = physical.startsWith('http') ? physical : await queueUrlOf(this.sqs, `arn:aws:sqs:${MOTO_REGION}:${this.stack.accountId}:${physical}`);
    return this.queueDepthOfUrl(logicalId, url);
  }

  private async queueDepthOfUrl(logicalId: string, url: string): Promise<QueueDepth> {
    const attributes = await this.sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
    );
    return {
      logicalId,
      visible: Number(stringAt(attributes.Attributes, 'ApproximateNumberOfMessages') ?? '0'),
      inFlight: Number(stringAt(attributes.Attributes, 'ApproximateNumberOfMessagesNotVisible') ?? '0'),
    };
  }

  totalInvocations(): number {
    return [...this.functions.values()].reduce((sum, fn) => sum + fn.invocations, 0);
  }

  /**
   * Waits until nothing runs: no invocation for `quietMs` and every stream read to its end.
   * Gives up after `timeoutMs` with what still runs (a guard against a hang, not a measurement).
   */
  async settle(quietMs = 5_000, timeoutMs = 300_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let seen = this.totalInvocations();
    let since = Date.now();
    while (Date.now() - since < quietMs || !this.streamPollers.every((p) => p.caughtUp) || this.lambda.pending() > 0) {
      if (Date.now() > deadline) throw new Error(`the deployed stack did not settle within ${timeoutMs} ms:\n${this.report()}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
      const now = this.totalInvocations();
      if (now !== seen) {
        seen = now;
        since = Date.now();
      }
    }
  }

  /** What ran: per function invocations and errors (with the last log lines of any that failed). */
  report(): string {
    const lines: string[] = [];
    for (const fn of this.functions.values()) {
      lines.push(`${fn.spec.logicalId}: ${fn.invocations} invocations, ${fn.errors.length} errors`);
      for (const error of fn.errors.slice(0, 3)) lines.push(`  ${error.errorType}: ${error.errorMessage}`);
      if (fn.errors.length > 0) lines.push(...fn.logTail.slice(-15).map((l) => `  | ${l.slice(0, 400)}`));
    }
    for (const p of this.sqsPollers) lines.push(`sqs mapping ${p.fn.spec.logicalId}: ${p.delivered} messages in ${p.batches} batches, ${p.kept} left for redelivery`);
    const { accepted, failed, sentOnFailure } = this.lambda.counters;
    lines.push(`asynchronous invocations: ${accepted} accepted, ${failed} failed, ${sentOnFailure} sent on failure`);
    for (const p of this.streamPollers) lines.push(`stream mapping ${p.fn.spec.logicalId}: ${p.delivered} records in ${p.batches} batches, ${p.retried} retries, ${p.discarded} sent on failure`);
    return lines.join('\n');
  }

  async stop(): Promise<void> {
    await Promise.all([...this.sqsPollers, ...this.streamPollers].map((p) => p.stop()));
    await this.api.close();
    await this.lambda.close();
    await Promise.all([...this.functions.values()].map((fn) => fn.stop()));
    this.sqs.destroy();
    this.streams.destroy();
    rmSync(this.codeRoot, { recursive: true, force: true });
  }
}
