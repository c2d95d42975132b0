import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { resyncAll } from '../functions/reconcile/resync/resync-all.js';
import { type ControlPlane, startControlPlane } from '../local/control-plane.js';
import type { KubeObject } from '../shared/contracts/object.js';
import { consoleLogger } from '../shared/ports/logger.js';
import type { ChangeSource, ObjectStore } from '../shared/ports/object-store.js';
import { MemoryObjectStore } from '../shared/store/memory-store.js';
import type { RequestHandler } from '../shared/work/request-outcome.js';
import type { ReconcileRequest } from '../shared/ports/work-queue.js';
import type { FaultInjector } from './faults/fault-plan.js';
import { FaultyStore } from './faults/faulty-store.js';
import { BenchApiClient } from './api-client.js';
import type { BenchOptions } from './args.js';
import { forEachBounded } from './bounded.js';
import { CountingStore } from './counting-store.js';
import { addSnapshots, delta, type Snapshot } from './bench-snapshot.js';
import { averageObjectBytes, buildReport } from './build-report.js';
import { FleetTracker } from './fleet-tracker.js';
import { LatencyStore } from './latency-store.js';
import { measureRawStoreThroughput } from './raw-store-throughput.js';
import type { BenchReport } from './report.js';
import { topologyClusterObjects, topologyDeletionOrder } from './topology-workload.js';
import { measureCliStart } from './cli-start.js';
import { PhaseWaits } from './phase-waits.js';
import { percentile } from '../shared/work/work-counters.js';
import { benchCluster, clusterObjects } from './workload.js';

/** Progress lines for the terminal; the test passes a silent one. */
export type BenchLog = (line: string) => void;


/** The embedded resync period under `--faults`: the net that finds lost messages. */
const FAULTS_RESYNC_SECONDS = 5;

/**
 * One benchmark run: the raw store's write limit first, then the embedded control plane with a
 * counting store; N clusters created through the API, waited on until ready, one full resync
 * measured, all deleted and waited on until gone. Returns the report (never throws on a timeout:
 * `completed` says so).
 */
export async function runBenchmark(options: BenchOptions, log: BenchLog = () => {}, faults?: FaultInjector): Promise<BenchReport> {
  const machinesPerCluster = options.controlPlaneReplicas + options.workerReplicas;
  const machine = { cores: availableParallelism(), loadAverage1m: loadavg()[0] ?? 0 };
  const raw = await measureRawStoreThroughput(options.store, {
    objects: Math.min(2000, Math.max(50, options.clusters * machinesPerCluster)),
    concurrency: options.reconcileConcurrency,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
  });
  log(`raw ${options.store} store: ${raw.writes} writes in ${raw.seconds.toFixed(2)} s = ${raw.writesPerSecond.toFixed(0)} writes/s`);

  const dataDir = await mkdtemp(join(tmpdir(), 'capless-bench-'));
  const timing = { reconcileMs: 0 };
  const requeues: Record<string, number> = {};
  let counting: CountingStore | undefined;
  const latency: { store?: LatencyStore } = {};
  const plane = await startControlPlane({
    dataDir,
    port: 0,
    // The file store keeps its journal in the run's data dir, as `capless up` does; dynalite stays in memory.
    persist: options.store === 'file',
    embeddedStore: options.store === 'file' ? 'file' : 'dynalite',
    concurrency: options.reconcileConcurrency,
    // Lambda's concurrency is the account's, all functions together.
    ...(options.simulateAws ? { totalConcurrency: options.reconcileConcurrency } : {}),
    ...(options.reconcileWorkers > 0 ? { workers: options.reconcileWorkers } : {}),
    // Under faults a lost message is only found again by the resync: run it often.
    resyncSeconds: faults ? FAULTS_RESYNC_SECONDS : options.resyncSeconds,
    ...(faults || options.simulateAws ? { wrapReconcileStore: (inner: ObjectStore) => reconcilerStore(inner, options, faults, latency) } : {}),
    ...(faults ? { deliverRouted: (requests: ReconcileRequest[]) => faults.deliver(requests) } : {}),
    ...(options.verbose ? { logger: consoleLogger('warn') } : {}),
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.store === 'memory' ? { store: new MemoryObjectStore() } : {}),
    wrapStore: (store: ObjectStore & ChangeSource) => {
      counting = new CountingStore(store);
      return counting;
    },
    wrapHandler: (handler: RequestHandler): RequestHandler => async (request, failures) => {
      const started = performance.now();
      try {
        const outcome = await handler(request, failures);
        if (outcome.type === 'requeue' || outcome.type === 'retry') {
          const label = `${request.kind} ${outcome.type} ${outcome.afterSeconds}s`;
          requeues[label] = (requeues[label] ?? 0) + 1;
        }
        return outcome;
      } finally {
        timing.reconcileMs += performance.now() - started;
      }
    },
  });
  const store = counting;
  if (!store) throw new Error('the control plane did not take the counting store');
  const runId = Date.now().toString(36);
  const tracker = new FleetTracker(store, `bench-${runId}-`, machinesPerCluster);
  const client = new BenchApiClient(plane.url, plane.token);
  const snapshot = (): Snapshot => ({
    store: store.counts(),
    queue: { ...plane.queue.counters },
    reconcileMs: timing.reconcileMs,
    apiRequests: client.requests,
  });
  const shape = options;
  const objectsOf = (c: { namespace: string; name: string }) =>
    options.topology ? topologyClusterObjects(c.namespace, c.name, shape) : clusterObjects(c.namespace, c.name, shape);
  const deletionOrder = (objects: KubeObject[]) => (options.topology ? topologyDeletionOrder(objects) : objects);
  const clusters = Array.from({ length: options.clusters }, (_, i) => benchCluster(runId, i));
  const deadline = () => Date.now() + options.timeoutSeconds * 1000;

  const waits = new PhaseWaits(plane.queue);
  try {
    const beforeCreate = snapshot();
    const cpuBefore = process.cpuUsage();
    const callsBefore = latency.store?.calls ?? 0;
    const createStarted = performance.now();
    await forEachBounded(clusters, options.clientConcurrency, async (c) => {
      for (const obj of objectsOf(c)) await client.create(obj);
    });
    log(`created ${clusters.length} clusters' objects in ${seconds(createStarted).toFixed(1)} s; waiting until ready`);
    const allReady = await waitFor(() => tracker.readyClusters() === options.clusters, deadline(), log, () => `${tracker.readyClusters()}/${options.clusters} ready`);
    const readySeconds = seconds(createStarted);
    const readyClusters = tracker.readyClusters();
    await settle(plane);
    const afterCreate = snapshot();
    const createWaits = waits.endPhase();

    const resync = await measureResync(plane, store, snapshot);
    waits.endPhase();
    log(`one resync of ${options.clusters} clusters: ${resync.queue.processed} reconciles`);
    // In a namespace of its own: the fleet tracker counts every object in the clusters' namespaces.
    const cliStart = await measureCliStart(plane.kubeconfigPath, `bench-cli-${runId}`);
    log(`capless CLI start: get ${cliStart.getMs.toFixed(0)} ms, describe ${cliStart.describeMs.toFixed(0)} ms, apply ${cliStart.applyMs.toFixed(0)} ms`);

    const beforeDelete = snapshot();
    const deleteStarted = performance.now();
    await forEachBounded(clusters, options.clientConcurrency, async (c) => {
      for (const obj of deletionOrder(objectsOf(c))) await client.delete(obj);
    });
    const allGone = await waitFor(() => tracker.liveObjects() === 0, deadline(), log, () => `${tracker.liveObjects()} objects left`);
    const deleteSeconds = seconds(deleteStarted);
    await settle(plane);
    const afterDelete = snapshot();
    const changeWaits = [...createWaits, ...waits.endPhase()];

    const cpu = process.cpuUsage(cpuBefore);
    const converge = delta(afterCreate, beforeCreate);
    const lifecycle = addSnapshots(converge, delta(afterDelete, beforeDelete));
    return buildReport({
      options,
      completed: allReady && allGone,
      machine,
      readyClusters,
      tracker,
      lifecycle,
      converge,
      reconciledKinds: new Set(plane.registry.all().map((r) => r.kind.kind)),
      resync,
      readySeconds,
      deleteSeconds,
      latency: { p50: percentile(changeWaits, 50) ?? 0, p99: percentile(changeWaits, 99) ?? 0 },
      rawWritesPerSecond: raw.writesPerSecond,
      objectBytes: averageObjectBytes(lifecycle.store),
      requeues,
      cliStart,
      // Create, resync and delete together: an upper bound on reconcile CPU (it includes the API's).
      processCpuSeconds: (cpu.user + cpu.system) / 1e6,
      reconcilerStoreCalls: (latency.store?.calls ?? 0) - callsBefore,
    });
  } finally {
    waits.stop();
    tracker.stop();
    await plane.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** What reconcilers see: faults injected (`--faults`) after DynamoDB's latency (`--simulate-aws`). */
function reconcilerStore(inner: ObjectStore, options: BenchOptions, faults: FaultInjector | undefined, latency: { store?: LatencyStore }): ObjectStore {
  if (options.simulateAws) latency.store = new LatencyStore(inner, options.simulateAws.storeLatencyMs);
  const delayed = latency.store ?? inner;
  return faults ? new FaultyStore(delayed, faults) : delayed;
}

async function measureResync(plane: ControlPlane, store: ObjectStore, snapshot: () => Snapshot): Promise<Snapshot> {
  const before = snapshot();
  await resyncAll(store, plane.registry, plane.queue);
  await settle(plane);
  return delta(snapshot(), before);
}

/** Waits for the queue to go idle, but not forever (a requeue loop must not hang the run). */
async function settle(plane: ControlPlane): Promise<void> {
  await Promise.race([plane.queue.idle(), new Promise((resolve) => setTimeout(resolve, 30_000).unref())]);
}

async function waitFor(done: () => boolean, deadline: number, log: BenchLog, progress: () => string): Promise<boolean> {
  let lastLog = Date.now();
  while (!done()) {
    if (Date.now() > deadline) {
      log(`timed out: ${progress()}`);
      return false;
    }
    if (Date.now() - lastLog > 10_000) {
      log(progress());
      lastLog = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

function seconds(startedMs: number): number {
  return (performance.now() - startedMs) / 1000;
}
