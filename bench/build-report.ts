/** The benchmark's report from what a run measured: per-object figures, costs, the AWS projection. */

import type { BenchOptions } from './args.js';
import { projectionGrid, type SampleFigures } from './aws-projection.js';
import type { Snapshot } from './bench-snapshot.js';
import type { CliStartReport } from './cli-start.js';
import { DEFAULT_COST_ASSUMPTIONS, describeAssumptions, fleetAtRest, type OperationCounts, priceOperations } from './cost-model.js';
import type { StoreCounts } from './counting-store.js';
import type { FleetTracker } from './fleet-tracker.js';
import type { BenchReport } from './report.js';
import { queuePerKindTopology, sharedQueueTopology } from './work-topology.js';

/** The fleet the at-rest cost is given for. */
const AT_REST_FLEET = 10;

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

function reconciledObjectsOf(byKind: Record<string, number>, reconciled: ReadonlySet<string>): number {
  return Object.entries(byKind).reduce((sum, [kind, count]) => sum + (reconciled.has(kind) ? count : 0), 0);
}

/** A rough item size from the write units (1 KB each, table plus indexes): enough for storage cost. */
export function averageObjectBytes(counts: StoreCounts): number {
  return counts.writes === 0 ? 0 : (counts.writeUnits / counts.writes / 4) * 1024;
}

export interface ReportInputs {
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

export function buildReport(i: ReportInputs): BenchReport {
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
