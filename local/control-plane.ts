import { AsyncResource } from 'node:async_hooks';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { handleApiRequest } from '../functions/api/api.js';
import { builtinExtensions } from '../functions/hooks/builtin-extensions.js';
import type { RuntimeExtension } from '../functions/hooks/define-extension.js';
import { hostedExtensionsHandler, isHostedExtensionsPath } from '../functions/hooks/hosted-extensions.js';
import { bearerTokenAuthenticator } from '../functions/api/auth.js';
import { pathAdmission } from '../functions/api/path-admission.js';
import { WatchHub, type WatchLimits } from '../functions/api/watch/watch-hub.js';
import { ChangeLog } from '../shared/watch/change-log.js';
import { recoverMissedChanges } from '../shared/watch/recover-missed-changes.js';
import { FileChangeJournal } from './file-change-journal.js';
import { requestProcessor } from '../functions/reconcile/engine/process-request.js';
import { builtinProviderRegistry } from '../functions/reconcile/engine/providers/builtin.js';
import type { ProviderRegistry } from '../functions/reconcile/engine/providers/provider-registry.js';
import { ReconcilerRegistry } from '../functions/reconcile/engine/registry.js';
import { resyncAll } from '../functions/reconcile/resync/resync-all.js';
import { routeChange } from '../functions/reconcile/router/route-change.js';
import type { ReconcileContext } from '../functions/reconcile/engine/skeleton/types.js';
import { createObjectTable, DEFAULT_TABLE_NAME, DynamoObjectStore } from '../shared/adapters/aws/dynamodb/index.js';
import { BUILTIN_KINDS, KindRegistry } from '../shared/contracts/kinds.js';
import { systemClock, type Clock } from '../shared/ports/clock.js';
import { type Logger, silentLogger } from '../shared/ports/logger.js';
import type { ChangeSource, ObjectChange, ObjectStore } from '../shared/ports/object-store.js';
import type { AwsCloudFactory } from '../shared/ports/aws-cloud.js';
import type { WorkloadCluster } from '../shared/ports/workload-cluster.js';
import { InProcessWorkQueue } from '../shared/work/in-process-queue.js';
import type { RequestHandler } from '../shared/work/request-outcome.js';
import type { ReconcileRequest } from '../shared/ports/work-queue.js';
import { loadOrCreateHooksPathSecret, loadOrCreateServingCertificate, loadOrCreateToken, writeKubeconfig } from './data-dir.js';
import type { ExtensionTransport } from '../shared/ports/runtime-extensions.js';
import { startEmbeddedDynamoDb } from './embedded-dynamodb.js';
import { defaultEmbeddedStore, type EmbeddedStoreKind } from './embedded-store-kind.js';
import { openFileObjectStore } from './file-object-store.js';
import { MemoryObjectStore } from '../shared/store/memory-store.js';
import { listen } from './http-server.js';
import { reconcilePorts } from './reconcile-ports.js';
import { ReconcileDispatcher } from './workers/reconcile-dispatcher.js';
import type { ReconcileWorkerData } from './workers/reconcile-worker.js';
import { threadWorkers } from './workers/thread-worker.js';
import { causeOf } from '../shared/work/read-versions.js';

export interface ControlPlaneOptions {
  dataDir: string;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /**
   * Serve HTTPS with a self-signed certificate kept in the data dir (what `capless up` does:
   * kubectl sends bearer tokens only over TLS). Default false: plain HTTP for in-process tests.
   */
  tls?: boolean;
  /** An AWS-compatible endpoint (LocalStack, moto, DynamoDB Local) instead of the embedded dynalite. */
  endpoint?: string;
  logger?: Logger;
  clock?: Clock;
  /**
   * The embedded store when no `endpoint` or `store` is given (ADR 0131): `file`, the in-memory
   * store kept durable in `<data-dir>/objects.jsonl`, or `dynalite`, the DynamoDB adapter on
   * dynalite under `<data-dir>/dynamodb`. Default: `dynalite` for a data dir that already holds a
   * dynalite store and no object journal (nothing is lost on upgrade), `file` otherwise.
   */
  embeddedStore?: EmbeddedStoreKind;
  /** Keep the embedded store in memory instead of under the data dir (benchmarks, tests). Default true (persist). */
  persist?: boolean;
  /**
   * Reconciles of one kind at once (per worker with `workers`), as controller-runtime's
   * MaxConcurrentReconciles is per controller (ADR 0133). Default 8.
   */
  concurrency?: number;
  /** Reconciles of all kinds together at once, when they must be capped (the AWS simulation's Lambda concurrency). Default: no cap beyond `concurrency` per kind. */
  totalConcurrency?: number;
  /**
   * Run the reconcilers in this many worker threads (ADR 0115) instead of on this thread's event
   * loop. The queue, store and API stay here. Workers wire the built-in providers with the default
   * ports: `awsCloud`, `workloadCluster`, `providers` and `extensionTransport` cannot be given with it.
   */
  workers?: number;
  /** What each worker thread is told (plain data). */
  workerData?: ReconcileWorkerData;
  /** Seconds between full resyncs. Default 600 (Cluster API's 10 minutes). */
  resyncSeconds?: number;
  /** The AWS provider's cloud; default the SDK (endpoints from AWS_ENDPOINT_URL*, region per AWSCluster). */
  awsCloud?: AwsCloudFactory;
  /** Where Machines find their Nodes and ClusterResourceSets apply; default simulated clusters in memory, every other through its `<cluster>-kubeconfig` Secret. */
  workloadCluster?: WorkloadCluster;
  /** Providers to run; default the built-ins. */
  providers?: ProviderRegistry;
  /** A store to use instead of DynamoDB (benchmarks: the in-memory store); no dynalite is started. */
  store?: ObjectStore & ChangeSource;
  /** Wraps the store everything uses, API and reconcilers alike (benchmarks: counting). */
  wrapStore?: (store: ObjectStore & ChangeSource) => ObjectStore & ChangeSource;
  /** Watch limits (timeouts, bookmark interval, per-client queue, open watches); default DEFAULT_WATCH_LIMITS. */
  watchLimits?: Partial<WatchLimits>;
  /** Runtime Extensions served under /hooks/<path secret>/<name> on the same listener; default the built-ins. */
  extensions?: readonly RuntimeExtension[];
  /** How reconcilers reach Runtime Extensions; default HTTPS verified against each ExtensionConfig's caBundle. */
  extensionTransport?: ExtensionTransport;
  /** Wraps the queue's request handler (benchmarks: reconcile durations). */
  wrapHandler?: (handler: RequestHandler) => RequestHandler;
  /** Wraps the store reconcilers see, not the API's (benchmark fault mode: throttling, crashes). */
  wrapReconcileStore?: (store: ObjectStore) => ObjectStore;
  /** Passes each change's routed requests on the way to the queue (benchmark fault mode: lost and duplicated messages). */
  deliverRouted?: (requests: ReconcileRequest[]) => ReconcileRequest[];
}

export interface ControlPlane {
  url: string;
  token: string;
  /** The credential in hosted extensions' URLs (ADR 0100). */
  hooksPathSecret: string;
  kubeconfigPath: string;
  store: ObjectStore & ChangeSource;
  queue: InProcessWorkQueue;
  registry: ReconcilerRegistry;
  watches: WatchHub;
  stop(): Promise<void>;
}

/**
 * The embedded control plane (`capless up`): the production handlers in one process. The
 * DynamoDB adapter on dynalite (or an external endpoint), a change tap standing in for the
 * table's stream, the router feeding an in-process queue with SQS's semantics, the reconcilers,
 * and the management API on 127.0.0.1 behind a bearer token. A resync at start resumes any work
 * a killed process left behind.
 */
export async function startControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  const logger = options.logger ?? silentLogger;
  const clock = options.clock ?? systemClock;
  const token = await loadOrCreateToken(options.dataDir);
  const backend = options.store ? { store: options.store, close: async () => {} } : await embeddedBackend(options, clock, logger);
  const store = options.wrapStore ? options.wrapStore(backend.store) : backend.store;

  const providers = options.providers ?? builtinProviderRegistry();
  const registry = new ReconcilerRegistry(providers.reconcilers());
  const kinds = new KindRegistry([...BUILTIN_KINDS, ...providers.kinds()]);

  let context: ReconcileContext | undefined;
  const reconcileStore = options.wrapReconcileStore ? options.wrapReconcileStore(store) : store;
  const dispatcher = options.workers ? workerDispatcher(options, reconcileStore, () => queue, logger) : undefined;
  const queue: InProcessWorkQueue = new InProcessWorkQueue({
    handler: (options.wrapHandler ?? ((handler: RequestHandler) => handler))(
      dispatcher ? dispatcher.handler : requestProcessor({ registry, context: () => requireContext(context) }),
    ),
    ...reconcileSlots(options),
    clock,
    logger,
    resync: { intervalSeconds: options.resyncSeconds ?? 600, run: async () => void (await resyncAll(store, registry, queue)) },
  });
  context = {
    store: reconcileStore,
    queue,
    clock,
    logger,
    providers: reconcilePorts(store, {
      providers,
      clock,
      ...(options.workloadCluster ? { workloadCluster: options.workloadCluster } : {}),
      ...(options.awsCloud ? { awsCloud: options.awsCloud } : {}),
      ...(options.extensionTransport ? { extensionTransport: options.extensionTransport } : {}),
    }),
  };
  try {
    await dispatcher?.start();
  } catch (error) {
    await dispatcher?.stop();
    await backend.close();
    throw error;
  }

  // Before anything writes: the log picks up its history and what the store changed unseen (ADR 0081).
  const log = await openChangeLog(options, store, kinds, clock);
  // Bound to this context, not the writer's: routing is the router's work (its own function on
  // AWS), so what it reads is no reconcile's read.
  const unsubscribe = store.onChange(AsyncResource.bind((change: ObjectChange) => {
    routeChange(change, registry, store)
      .then((requests) => queue.enqueueMany(options.deliverRouted ? options.deliverRouted(requests) : requests, causeOf(change)))
      .catch((error: unknown) => logger.error('routing a change failed', { error: String(error) }));
  }));
  queue.start();
  const resumed = await resyncAll(store, registry, queue);
  logger.info('resync at start', { objects: resumed });

  const watches = new WatchHub(log, options.watchLimits);
  const admission = pathAdmission(kinds, providers);
  const authenticate = bearerTokenAuthenticator([{ token, principal: { name: 'capless-admin', canReadSecrets: true, canWriteSecrets: true } }]);
  const host = options.host ?? '127.0.0.1';
  const tls = options.tls ? await loadOrCreateServingCertificate(options.dataDir, host) : undefined;
  const hooksPathSecret = await loadOrCreateHooksPathSecret(options.dataDir);
  const hosted = hostedExtensionsHandler({ extensions: options.extensions ?? builtinExtensions({ now: () => clock.now() }), pathSecret: hooksPathSecret });
  const http = await listen(
    (request) => (isHostedExtensionsPath(request.path) ? hosted(request) : handleApiRequest(request, { store, kinds, admission, authenticate, logger, watches, contracts: providers })),
    { host, port: options.port, ...(tls ? { tls } : {}) },
  );
  const kubeconfigPath = await writeKubeconfig(options.dataDir, http.url, token, tls?.cert);
  logger.info('capless is up', { url: http.url, kubeconfig: kubeconfigPath });

  return {
    url: http.url,
    token,
    hooksPathSecret,
    kubeconfigPath,
    store,
    queue,
    registry,
    watches,
    async stop() {
      watches.close();
      watches.log.close();
      await http.close();
      unsubscribe();
      await queue.stop();
      await dispatcher?.stop();
      await backend.close();
    },
  };
}

interface Backend {
  store: ObjectStore & ChangeSource;
  close(): Promise<void>;
}

/** The store `capless up` runs on when none is given: an external endpoint, or one of the embedded stores (ADR 0131). */
async function embeddedBackend(options: ControlPlaneOptions, clock: Clock, logger: Logger): Promise<Backend> {
  if (options.endpoint) return dynamoBackend(options, clock);
  const kind = options.embeddedStore ?? defaultEmbeddedStore(options.dataDir, options.persist ?? true);
  logger.info('embedded store', { store: kind, persist: options.persist ?? true });
  if (kind === 'dynalite') return dynamoBackend(options, clock);
  if (options.persist === false) return { store: new MemoryObjectStore({ clock }), close: async () => {} };
  const opened = openFileObjectStore(options.dataDir, { clock });
  if (opened.droppedLines > 0) logger.warn('the object journal ended in lines that could not be read; they were dropped', { lines: opened.droppedLines });
  return { store: opened.store, close: async () => opened.close() };
}

/** The DynamoDB adapter on dynalite (or an external endpoint), with the change tap on. */
async function dynamoBackend(options: ControlPlaneOptions, clock: Clock): Promise<Backend> {
  const dynamo = options.endpoint ? undefined : await startEmbeddedDynamoDb(options.dataDir, { persist: options.persist ?? true });
  const client = new DynamoDBClient({
    // The embedded store is reached through its Unix socket only (ADR 0042); --endpoint over HTTP(S).
    ...(dynamo ? dynamo.clientConfig() : { endpoint: options.endpoint }),
    region: process.env.AWS_REGION ?? 'us-east-1',
    credentials: { accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? 'capless', secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? 'capless' },
  });
  await createObjectTable(client, DEFAULT_TABLE_NAME);
  const store = new DynamoObjectStore({ client, tableName: DEFAULT_TABLE_NAME, tapChanges: true, clock });
  return {
    store,
    async close() {
      client.destroy();
      await dynamo?.close();
    },
  };
}

/**
 * The change log watches are served from. Kept in the data directory when the store is (the
 * default), so watch positions survive a restart; in memory when the store is.
 */
async function openChangeLog(options: ControlPlaneOptions, store: ObjectStore & ChangeSource, kinds: KindRegistry, clock: Clock): Promise<ChangeLog> {
  const durable = !options.store && (options.endpoint !== undefined || options.persist !== false);
  if (!durable) return new ChangeLog(store, { clock });
  const log = new ChangeLog(store, { clock, journal: new FileChangeJournal(options.dataDir) });
  const missed = await recoverMissedChanges(log, store, kinds.all());
  if (missed > 0) (options.logger ?? silentLogger).info('watch history caught up with the store', { changes: missed });
  return log;
}

/** `workers` threads over the reconcilers' store and this queue; refuses what cannot cross a thread. */
function workerDispatcher(options: ControlPlaneOptions, store: ObjectStore, queue: () => InProcessWorkQueue, logger: Logger): ReconcileDispatcher {
  const local = (['awsCloud', 'workloadCluster', 'providers', 'extensionTransport'] as const).filter((name) => options[name] !== undefined);
  if (local.length > 0) throw new Error(`workers run the built-in providers with default ports; ${local.join(', ')} cannot be given with workers`);
  return new ReconcileDispatcher({
    workers: options.workers ?? 1,
    spawn: threadWorkers(options.workerData ?? { logLevel: 'warn', simulatedLoadBalancers: false }),
    store,
    queue,
    logger,
  });
}

function requireContext(context: ReconcileContext | undefined): ReconcileContext {
  if (!context) throw new Error('the reconcile context is not ready yet');
  return context;
}

/** The queue's slots: `concurrency` per kind (per worker with `workers`), capped in total only when asked. */
function reconcileSlots(options: ControlPlaneOptions): { concurrencyPerKind: number; concurrency: number } {
  return {
    concurrencyPerKind: (options.concurrency ?? 8) * Math.max(1, options.workers ?? 1),
    concurrency: options.totalConcurrency ?? Number.MAX_SAFE_INTEGER,
  };
}
