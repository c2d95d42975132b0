import { Duration } from 'aws-cdk-lib';
import { type IFunction, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import { type ApiAuth, ManagementApi } from './api/management-api.js';
import { ApiFrontDoor } from './api/front-door/api-front-door.js';
import { WatchEndpoint } from './api/watch-endpoint.js';
import { CaplessFunction } from './functions/capless-function.js';
import { ENV } from './functions/entry-points.js';
import { ProviderEventRules } from './events/provider-event-rules.js';
import { grantProviderPermissions } from './functions/provider-permissions.js';
import { HostedExtensions } from './hooks/hosted-extensions.js';
import { ControlPlaneMonitoring, type WatchedKind } from './monitoring/control-plane-monitoring.js';
import type { CaplessControlPlaneProps, ResolvedControlPlaneProps } from './props/control-plane-props.js';
import { resolveControlPlaneProps } from './props/resolve-control-plane-props.js';
import { reconcileKindKey } from './reconciled-kinds.js';
import { ResyncSchedule } from './schedule/resync-schedule.js';
import { ObjectTable } from './state/object-table.js';
import { StreamFailureQueue } from './work/stream-failure-queue.js';
import { WorkDispatcher } from './work/work-dispatcher.js';
import { WorkQueues } from './work/work-queues.js';

/** A reconciler gets this long per invocation (a batch of at most 100 requests of its kind). */
const RECONCILER_TIMEOUT = Duration.seconds(60);
/** The dispatcher only reads a batch and invokes; the shared queue hides a received message 6× as long (AWS's advice). */
const DISPATCHER_TIMEOUT = Duration.seconds(30);
const QUEUE_VISIBILITY_TIMEOUT = Duration.seconds(DISPATCHER_TIMEOUT.toSeconds() * 6);
/** A run's lease on its object outlives the run (timeout); a crashed run's requests are re-sent after it. */
const LEASE = Duration.seconds(RECONCILER_TIMEOUT.toSeconds() * 2);
/** Past this age a stream record is skipped (and reported); by then the resync has re-enqueued its object. */
const STREAM_MAX_RECORD_AGE = Duration.hours(1);
const STREAM_RETRY_ATTEMPTS = 5;
const OLDEST_MESSAGE_AGE_ALARM = Duration.minutes(15);
/** How many dispatcher invocations the shared queue's event source runs at once (Lambda's minimum is 2). */
const DISPATCHER_MAX_CONCURRENCY = 2;
const ITERATOR_AGE_ALARM = Duration.minutes(5);

function apiAuth(props: ResolvedControlPlaneProps): ApiAuth {
  if (props.authMode === 'jwt') return { mode: 'jwt', issuer: props.jwtIssuer ?? '', audience: props.jwtAudience };
  return { mode: 'iam' };
}

/**
 * The capless control plane: the object table (and its Secrets, kept apart by IAM), one shared
 * work queue with its dispatcher and one reconciler function (with its own role, dead-letter
 * queue and reserved concurrency) per kind (ADR 0110), the stream router, the management API,
 * the periodic resync, and alarms with a dashboard. Put it in any stack of your own CDK app.
 *
 * Construct IDs below are part of the contract: renaming `State` or `Queues` (or a kind) would
 * replace the table or the queues.
 */
export class CaplessControlPlane extends Construct {
  readonly objects: ObjectTable;
  readonly queues: WorkQueues;
  /** The shared work queue's dispatcher (ADR 0110). */
  readonly dispatcher: WorkDispatcher;
  readonly streamFailures: StreamFailureQueue;
  readonly api: ManagementApi;
  readonly apiFunction: CaplessFunction;
  readonly router: CaplessFunction;
  /** Kubernetes watches: the watch log and the streaming function URL (ADR 0080). */
  readonly watches: WatchEndpoint;
  /** JWT mode: one CloudFront host for the API and its watches (ADR 0125); undefined without `apiFrontDoor`. */
  readonly frontDoor: ApiFrontDoor | undefined;
  readonly resync: CaplessFunction;
  /** Hosted Runtime Extensions behind `POST /hooks/{proxy+}` (ADR 0100). */
  readonly hostedExtensions: HostedExtensions;
  /** Reconciler functions by `<group>/<Kind>`. */
  readonly reconcilers: ReadonlyMap<string, CaplessFunction>;
  readonly resyncSchedule: ResyncSchedule;
  readonly monitoring: ControlPlaneMonitoring;

  constructor(scope: Construct, id: string, props: CaplessControlPlaneProps = {}) {
    super(scope, id);
    const resolved = resolveControlPlaneProps(props);
    const { logRetention, reconciledKinds } = resolved;

    this.objects = new ObjectTable(this, 'State');
    this.queues = new WorkQueues(this, 'Queues', {
      kinds: reconciledKinds,
      key: this.objects.key,
      visibilityTimeout: QUEUE_VISIBILITY_TIMEOUT,
      maxReceiveCount: resolved.maxReceiveCount,
    });
    this.streamFailures = new StreamFailureQueue(this, 'StreamFailures', { key: this.objects.key });
    const tableEnv = { [ENV.tableName]: this.objects.tableName };
    const allQueuesEnv = { ...tableEnv, [ENV.workQueueUrl]: this.queues.queue.queueUrl, [ENV.secretAccess]: 'false' };

    this.apiFunction = new CaplessFunction(this, 'ApiFunction', {
      entry: 'api',
      serviceName: 'capless-api',
      description: 'capless management API',
      timeout: Duration.seconds(29),
      logRetention,
      environment: { ...tableEnv, [ENV.secretAccess]: 'true' },
    });
    this.objects.grantReadObjects(this.apiFunction.function);
    this.objects.grantWriteObjects(this.apiFunction.function);
    this.objects.grantReadSecrets(this.apiFunction.function);
    this.objects.grantWriteSecrets(this.apiFunction.function);
    this.api = new ManagementApi(this, 'Api', { handler: this.apiFunction.function, auth: apiAuth(resolved), logRetention });
    this.hostedExtensions = new HostedExtensions(this, 'Hooks', { httpApi: this.api.httpApi, logRetention });

    this.router = new CaplessFunction(this, 'Router', {
      entry: 'router',
      serviceName: 'capless-router',
      description: 'capless: table changes to reconcile requests',
      timeout: Duration.seconds(60),
      logRetention,
      environment: allQueuesEnv,
    });
    this.objects.grantReadObjects(this.router.function);
    this.objects.grantWriteWorkItems(this.router.function);
    this.queues.grantEnqueue(this.router.function);
    const auth = apiAuth(resolved);
    this.watches = new WatchEndpoint(this, 'Watch', { objects: this.objects, logRetention, jwt: auth.mode === 'jwt' ? auth : undefined });
    this.watches.grantRecord(this.router.function);
    if (resolved.apiFrontDoor) this.frontDoor = new ApiFrontDoor(this, 'FrontDoor', { api: this.api, watches: this.watches });
    this.router.function.addEventSource(
      new DynamoEventSource(this.objects.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: STREAM_RETRY_ATTEMPTS,
        maxRecordAge: STREAM_MAX_RECORD_AGE,
        onFailure: this.streamFailures,
      }),
    );

    const reconcilers = new Map<string, CaplessFunction>();
    const monitored = new Map<string, IFunction>();
    const watchedKinds: WatchedKind[] = [];
    for (const kind of reconciledKinds) {
      const key = reconcileKindKey(kind);
      const fn = new CaplessFunction(this, `Reconcile${kind.kind}`, {
        entry: 'reconcile',
        serviceName: `capless-reconcile-${kind.kind.toLowerCase()}`,
        description: `capless reconciler for ${key}`,
        timeout: RECONCILER_TIMEOUT,
        logRetention,
        reservedConcurrentExecutions: resolved.reconcilerMaxConcurrency,
        environment: {
          ...tableEnv,
          [ENV.workQueueUrl]: this.queues.queue.queueUrl,
          [ENV.deadLetterUrls]: this.queues.deadLetterUrlsJson([kind]),
          [ENV.reconcileKind]: key,
          [ENV.maxReceiveCount]: String(resolved.maxReceiveCount),
          [ENV.leaseSeconds]: String(LEASE.toSeconds()),
          [ENV.secretAccess]: String(kind.needsSecrets),
        },
      });
      this.objects.grantReadObjects(fn.function);
      this.objects.grantWriteObjects(fn.function);
      if (kind.needsSecrets) {
        this.objects.grantReadSecrets(fn.function);
        this.objects.grantWriteSecrets(fn.function);
      } else if (kind.readsKubeconfigs) {
        this.objects.grantReadKubeconfigSecrets(fn.function);
      }
      this.queues.grantEnqueue(fn.function);
      this.queues.grantDeadLetter(fn.function, [kind]);
      grantProviderPermissions(fn.role, kind.permissions ?? []);
      if (kind.eventRules && kind.eventRules.length > 0) {
        new ProviderEventRules(this, `${kind.kind}Events`, { queue: this.queues.queue, kind: key, key: this.objects.key, rules: kind.eventRules });
      }
      reconcilers.set(key, fn);
      watchedKinds.push({ label: kind.kind, deadLetterQueue: this.queues.deadLetterOf(kind), reconciler: fn.function });
      monitored.set(`Reconcile${kind.kind}`, fn.function);
    }
    this.reconcilers = reconcilers;
    this.dispatcher = new WorkDispatcher(this, 'Work', {
      queues: this.queues,
      key: this.objects.key,
      reconcilers: new Map([...reconcilers].map(([key, fn]) => [key, fn.function])),
      timeout: DISPATCHER_TIMEOUT,
      maxConcurrency: DISPATCHER_MAX_CONCURRENCY,
      leaseSeconds: LEASE.toSeconds(),
      maxReceiveCount: resolved.maxReceiveCount,
      logRetention,
    });

    this.resync = new CaplessFunction(this, 'Resync', {
      entry: 'resync',
      serviceName: 'capless-resync',
      description: 'capless: one resync message per cluster on the shared work queue (periodic resync)',
      timeout: Duration.minutes(5),
      logRetention,
      environment: allQueuesEnv,
    });
    this.objects.grantReadObjects(this.resync.function);
    this.queues.grantEnqueue(this.resync.function);
    this.resyncSchedule = new ResyncSchedule(this, 'ResyncSchedule', { handler: this.resync.function, period: resolved.resyncPeriod });

    monitored.set('Api', this.apiFunction.function);
    monitored.set('Router', this.router.function);
    monitored.set('Resync', this.resync.function);
    monitored.set('Dispatcher', this.dispatcher.dispatcher.function);
    monitored.set('Hooks', this.hostedExtensions.function.function);
    monitored.set('Watch', this.watches.function.function);
    this.monitoring = new ControlPlaneMonitoring(this, 'Monitoring', {
      functions: monitored,
      router: this.router.function,
      workQueue: { label: 'Work', queue: this.queues.queue, deadLetterQueue: this.queues.deadLetterQueue },
      kinds: watchedKinds,
      streamFailures: this.streamFailures.queue,
      httpApi: this.api.httpApi,
      oldestMessageAgeThreshold: OLDEST_MESSAGE_AGE_ALARM,
      iteratorAgeThreshold: ITERATOR_AGE_ALARM,
      alarmTopic: resolved.alarmTopic,
    });
  }
}
