import { Duration, Stack } from 'aws-cdk-lib';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { CaplessFunction } from '../functions/capless-function.js';
import { ENV } from '../functions/entry-points.js';
import { EncryptedQueueDestination } from './work-queue-destination.js';
import type { WorkQueues } from './work-queues.js';
import type { IKey } from 'aws-cdk-lib/aws-kms';

/** How long Lambda keeps retrying an invocation throttled by its function's reserved concurrency. */
export const MAX_EVENT_AGE = Duration.hours(6);

export interface WorkDispatcherProps {
  readonly queues: WorkQueues;
  readonly key: IKey;
  /** Each kind's reconciler function, by `<group>/<Kind>`. */
  readonly reconcilers: ReadonlyMap<string, IFunction>;
  readonly timeout: Duration;
  /** Most concurrent dispatcher invocations by the shared queue's event source (2–1000). */
  readonly maxConcurrency: number;
  readonly leaseSeconds: number;
  readonly maxReceiveCount: number;
  readonly logRetention: RetentionDays;
}

/**
 * The dispatcher of ADR 0110: one function polling the shared work queue and invoking each kind's
 * reconciler asynchronously. Its role may invoke exactly the reconciler functions, send to the
 * shared queue (delayed hops, re-sends) and to every kind's dead-letter queue (requests that keep
 * crashing their reconciler). Each reconciler's asynchronous invocations get no Lambda retries
 * (the dispatcher re-sends after the lease instead, counting the failure) and the shared queue
 * as their on-failure destination.
 */
export class WorkDispatcher extends Construct {
  readonly dispatcher: CaplessFunction;

  constructor(scope: Construct, id: string, props: WorkDispatcherProps) {
    super(scope, id);
    const functions: Record<string, string> = {};
    for (const [kind, fn] of props.reconcilers) functions[kind] = fn.functionName;
    this.dispatcher = new CaplessFunction(this, 'Dispatcher', {
      entry: 'dispatch',
      serviceName: 'capless-dispatch',
      description: "capless: the shared work queue to each kind's reconciler",
      timeout: props.timeout,
      logRetention: props.logRetention,
      environment: {
        [ENV.workQueueUrl]: props.queues.queue.queueUrl,
        [ENV.deadLetterUrls]: props.queues.deadLetterUrlsJson(),
        [ENV.reconcilerFunctions]: Stack.of(this).toJsonString(functions),
        [ENV.leaseSeconds]: String(props.leaseSeconds),
        [ENV.maxReceiveCount]: String(props.maxReceiveCount),
      },
    });
    this.dispatcher.role.addToPrincipalPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['lambda:InvokeFunction'],
        resources: [...props.reconcilers.values()].map((fn) => fn.functionArn),
      }),
    );
    props.queues.grantEnqueue(this.dispatcher.function);
    props.queues.grantDeadLetter(
      this.dispatcher.function,
      props.queues.kindDeadLetterQueues().map((q) => q.kind),
    );
    this.dispatcher.function.addEventSource(
      new SqsEventSource(props.queues.queue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: props.maxConcurrency }),
    );
    const onFailure = new EncryptedQueueDestination(props.queues.queue, props.key);
    for (const fn of props.reconcilers.values()) fn.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: MAX_EVENT_AGE, onFailure });
  }
}
