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
import type { WorkCounters } from '../shared/work/work-counters.js';
import { BenchApiClient } from './api-client.js';
import type { BenchOptions } from './args.js';
import { forEachBounded } from './bounded.js';
import { DEFAULT_COST_ASSUMPTIONS, describeAssumptions, fleetAtRest, type OperationCounts, priceOperations } from './cost-model.js';
import { queuePerKindTopology, sharedQueueTopology } from './work-topology.js';
import { CountingStore, type StoreCounts, storeCountsDelta } from './counting-store.js';
import { FleetTracker } from './fleet-tracker.js';
import { LatencyStore } from './latency-store.js';
import { projectionGrid, type SampleFigures } from './aws-projection.js';
import { measureRawStoreThroughput } from './raw-store-throughput.js';
import type { BenchReport } from './report.js';
import { topologyClusterObjects, topologyDeletionOrder } from './topology-workload.js';
import { type CliStartReport, measureCliStart } from './cli-start.js';
import { benchCluster, clusterObjects } from './workload.js';

/** Progress lines for the terminal; the test passes a silent one. */
export type BenchLog = (line: string) => void;

interface Snapshot {
  store: StoreCounts;
  queue: WorkCounters;
  reconcileMs: number;
  apiRequests: number;
}

const AT_REST_FLEET = 10;
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
    persist: false,
    concurrency: options.reconcileConcurrency,
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

    const resync = await measureResync(plane, store, snapshot);
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
      latency: { p50: plane.queue.latencyPercentile(50) ?? 0, p99: plane.queue.latencyPercentile(99) ?? 0 },
      rawWritesPerSecond: raw.writesPerSecond,
      objectBytes: averageObjectBytes(lifecycle.store),
      requeues,
      cliStart,
      // Create, resync and delete together: an upper bound on reconcile CPU (it includes the API's).
      processCpuSeconds: (cpu.user + cpu.system) / 1e6,
      reconcilerStoreCalls: (latency.store?.calls ?? 0) - callsBefore,
    });
  } finally {
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

function delta(after: Snapshot, before: Snapshot): Snapshot {
  return {
    store: storeCountsDelta(after.store, before.store),
    queue: {
      enqueued: after.queue.enqueued - before.queue.enqueued,
      coalesced: after.queue.coalesced - before.queue.coalesced,
      processed: after.queue.processed - before.queue.processed,
      failed: after.queue.failed - before.queue.failed,
      deadLettered: after.queue.deadLettered - before.queue.deadLettered,
    },
    reconcileMs: after.reconcileMs - before.reconcileMs,
    apiRequests: after.apiRequests - before.apiRequests,
  };
}

function addSnapshots(a: Snapshot, b: Snapshot): Snapshot {
  const negated: Snapshot = {
    store: storeCountsDelta({ reads: 0, writes: 0, readUnits: 0, writeUnits: 0, readsByKind: {}, writesByKind: {} }, b.store),
    queue: { enqueued: -b.queue.enqueued, coalesced: -b.queue.coalesced, processed: -b.queue.processed, failed: -b.queue.failed, deadLettered: -b.queue.deadLettered },
    reconcileMs: -b.reconcileMs,
    apiRequests: -b.apiRequests,
  };
  return delta(a, negated);
}

function operations(s: Snapshot, divisor: number): OperationCounts {
  return {
    reconciles: s.queue.processed / divisor,
    reconcileMs: s.reconcileMs / divisor,
    storeWrites: s.store.writes / divisor,
    readUnits: s.store.readUnits / divisor,
    writeUnits: s.store.writeUnits / divisor,
    workRecordWrites: (s.queue.enqueued + 2 * s.queue.processed) / divisor,
    queueMessages: (s.queue.enqueued - s.queue.coalesced) / divisor,
    apiRequests: s.apiRequests / divisor,
  };
}

/** A rough item size from the write units (1 KB each, table plus indexes): enough for storage cost. */
function reconciledObjectsOf(byKind: Record<string, number>, reconciled: ReadonlySet<string>): number {
  return Object.entries(byKind).reduce((sum, [kind, count]) => sum + (reconciled.has(kind) ? count : 0), 0);
}

function averageObjectBytes(counts: StoreCounts): number {
  return counts.writes === 0 ? 0 : (counts.writeUnits / counts.writes / 4) * 1024;
}

interface ReportInputs {
  options: BenchOptions;
  completed: boolean;
  machine: BenchReport['machine'];
  readyClusters: number;
  tracker: FleetTracker;
  lifecycle: Snapshot;
  /** Create until every cluster is ready (no resync, no delete). */
  converge: Snapshot;
  /** Kinds some reconciler serves: the objects that are reconciled at all. */
  reconciledKinds: ReadonlySet<string>;
  resync: Snapshot;
  readySeconds: number;
  deleteSeconds: number;
  latency: { p50: number; p99: number };
  rawWritesPerSecond: number;
  objectBytes: number;
  requeues: Record<string, number>;
  cliStart: CliStartReport;
  processCpuSeconds: number;
  reconcilerStoreCalls: number;
}

function buildReport(i: ReportInputs): BenchReport {
  const { options, lifecycle, tracker } = i;
  const objects = tracker.objectsSeen();
  const machines = tracker.objectsSeenOfKind('Machine');
  const per = (n: number, d: number) => (d === 0 ? 0 : n / d);
  const assumptions = {
    ...DEFAULT_COST_ASSUMPTIONS,
    averageObjectBytes: i.objectBytes,
    objectsPerCluster: per(objects, options.clusters),
    kindsPerCluster: Object.keys(tracker.kindsSeen()).filter((k) => i.reconciledKinds.has(k)).length,
  };
  // ADR 0110 is built: the stack deploys D (the shared work queue); A (a queue per kind, ADR 0003) is priced for comparison.
  const deployed = sharedQueueTopology();
  const replaced = queuePerKindTopology(i.reconciledKinds.size);
  const lifecyclePerCluster = operations(lifecycle, options.clusters);
  const resyncPerCluster = operations(i.resync, options.clusters);
  const perCluster = priceOperations(lifecyclePerCluster, assumptions, deployed);
  const atRest = fleetAtRest(resyncPerCluster, AT_REST_FLEET, options.resyncSeconds, assumptions, deployed);
  const replacedPerCluster = priceOperations(lifecyclePerCluster, assumptions, replaced);
  const replacedAtRest = fleetAtRest(resyncPerCluster, AT_REST_FLEET, options.resyncSeconds, assumptions, replaced);
  const activeSeconds = i.readySeconds + i.deleteSeconds;
  const sample: SampleFigures = {
    clusters: options.clusters,
    readySeconds: i.readySeconds,
    deleteSeconds: i.deleteSeconds,
    convergeReconciles: per(i.converge.queue.processed, options.clusters),
    deleteReconciles: per(lifecycle.queue.processed - i.converge.queue.processed, options.clusters),
    // On Lambda a reconcile has a CPU to itself: its time is its CPU plus its store calls' latency,
    // not the wall time it spent here sharing one event loop with 100 others.
    handlerSeconds: per(i.processCpuSeconds + (i.reconcilerStoreCalls * (options.simulateAws?.storeLatencyMs ?? 0)) / 1000, lifecycle.queue.processed + i.resync.queue.processed),
    writeUnits: lifecyclePerCluster.writeUnits + lifecyclePerCluster.workRecordWrites,
    costUSD: perCluster.totalUSD,
  };
  const controlPlaneWritesPerSecond = per(lifecycle.store.writes, activeSeconds);
  return {
    clusters: options.clusters,
    controlPlaneReplicas: options.controlPlaneReplicas,
    workerReplicas: options.workerReplicas,
    store: options.endpoint ? `dynamodb at ${options.endpoint}` : options.store,
    path: options.topology ? 'topology' : 'direct',
    provisionSeconds: options.provisionSeconds,
    keyAlgorithm: options.keyAlgorithm,
    reconcileConcurrency: options.reconcileConcurrency,
    reconcileWorkers: options.reconcileWorkers,
    clientConcurrency: options.clientConcurrency,
    completed: i.completed,
    readyClusters: i.readyClusters,
    machine: i.machine,
    cliStartMs: { get: i.cliStart.getMs, describe: i.cliStart.describeMs, apply: i.cliStart.applyMs },
    objects,
    machines,
    objectsByKind: tracker.kindsSeen(),
    readySeconds: i.readySeconds,
    deleteSeconds: i.deleteSeconds,
    reconciles: lifecycle.queue.processed,
    reconcilesPerObject: per(lifecycle.queue.processed, objects),
    reconciledObjects: reconciledObjectsOf(tracker.kindsSeen(), i.reconciledKinds),
    convergeReconcilesPerReconciledObject: per(i.converge.queue.processed, reconciledObjectsOf(tracker.kindsSeen(), i.reconciledKinds)),
    storeReads: lifecycle.store.reads,
    storeWrites: lifecycle.store.writes,
    storeReadsPerObject: per(lifecycle.store.reads, objects),
    storeWritesPerObject: per(lifecycle.store.writes, objects),
    machineWritesPerMachine: per(lifecycle.store.writesByKind.Machine ?? 0, machines),
    writesByKind: lifecycle.store.writesByKind,
    readsByKind: lifecycle.store.readsByKind,
    queueMessages: lifecycle.queue.enqueued,
    queueMessagesPerObject: per(lifecycle.queue.enqueued, objects),
    coalescedMessages: lifecycle.queue.coalesced,
    failedReconciles: lifecycle.queue.failed,
    deadLettered: lifecycle.queue.deadLettered,
    apiRequests: lifecycle.apiRequests,
    timedRequeues: i.requeues,
    latencyMs: i.latency,
    reconcileMsMean: per(lifecycle.reconcileMs, lifecycle.queue.processed),
    peakRssMB: process.resourceUsage().maxRSS / 1024,
    rawStoreWritesPerSecond: i.rawWritesPerSecond,
    controlPlaneStoreWritesPerSecond: controlPlaneWritesPerSecond,
    controlPlaneFractionOfRaw: per(controlPlaneWritesPerSecond, i.rawWritesPerSecond),
    resyncPerCluster: {
      reconciles: per(i.resync.queue.processed, options.clusters),
      storeReads: per(i.resync.store.reads, options.clusters),
      storeWrites: per(i.resync.store.writes, options.clusters),
      queueMessages: per(i.resync.queue.enqueued, options.clusters),
    },
    objectsLeft: tracker.liveObjects(),
    ...(options.simulateAws
      ? { simulation: { storeLatencyMs: options.simulateAws.storeLatencyMs, concurrency: options.reconcileConcurrency, sample, projections: projectionGrid(sample) } }
      : {}),
    costInputs: { resyncPerCluster, lifecyclePerCluster, assumptions },
    cost: {
      perClusterLifecycleUSD: perCluster.totalUSD,
      perClusterLifecycle: perCluster,
      fleetAtRestMonthlyUSD: atRest.totalUSD,
      fleetAtRest: atRest,
      queuePerKind: { perClusterLifecycleUSD: replacedPerCluster.totalUSD, fleetAtRest: replacedAtRest },
      assumptions: describeAssumptions(assumptions, [deployed, replaced]),
    },
  };
}
