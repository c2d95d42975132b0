import type { FaultReport } from './faults/run-with-faults.js';
import type { FleetProjection, SampleFigures } from './aws-projection.js';
import type { CostAssumptions, CostLines, FleetAtRest, OperationCounts } from './cost-model.js';

/** The JSON `npm run bench` writes; every figure is for the whole run unless it says per-something. */
export interface BenchReport {
  clusters: number;
  controlPlaneReplicas: number;
  workerReplicas: number;
  store: string;
  /** How clusters were created: their parts written directly, or a ClusterClass and `spec.topology`. */
  path: 'direct' | 'topology';
  provisionSeconds: number;
  keyAlgorithm: string;
  reconcileConcurrency: number;
  /** Reconcile worker threads; 0: on the main thread. */
  reconcileWorkers: number;
  clientConcurrency: number;
  /** False when a phase hit --timeout-seconds; the figures then cover what was reached. */
  completed: boolean;
  readyClusters: number;
  /** 1-minute load average and cores when the run started: other work on the machine skews every timing. */
  machine: { cores: number; loadAverage1m: number };
  /** Objects that existed in the benchmark's namespaces (created by the client or the control plane). */
  objects: number;
  machines: number;
  objectsByKind: Record<string, number>;
  readySeconds: number;
  deleteSeconds: number;
  reconciles: number;
  /** Lifecycle reconciles (create → ready, delete → gone; resync excluded) per object of any kind. */
  reconcilesPerObject: number;
  /** Objects of kinds a reconciler serves (not Secrets, ConfigMaps or templates). */
  reconciledObjects: number;
  /** Reconciles from create until every cluster is ready, per reconciled object: the "≤ 4 to converge" figure. */
  convergeReconcilesPerReconciledObject: number;
  storeReads: number;
  storeWrites: number;
  storeReadsPerObject: number;
  storeWritesPerObject: number;
  /** Writes to Machine objects per Machine, over the whole life. */
  machineWritesPerMachine: number;
  writesByKind: Record<string, number>;
  readsByKind: Record<string, number>;
  queueMessages: number;
  queueMessagesPerObject: number;
  coalescedMessages: number;
  failedReconciles: number;
  deadLettered: number;
  apiRequests: number;
  /** Reconciles that asked to run again after a delay (or failed and backed off), by kind and delay: waits on timers, not watches. */
  timedRequeues: Record<string, number>;
  /** Enqueue to reconcile start, whole run (router time before the enqueue not included). */
  latencyMs: { p50: number; p99: number };
  reconcileMsMean: number;
  peakRssMB: number;
  rawStoreWritesPerSecond: number;
  controlPlaneStoreWritesPerSecond: number;
  /** controlPlaneStoreWritesPerSecond / rawStoreWritesPerSecond. */
  controlPlaneFractionOfRaw: number;
  /** `capless get|describe|apply` from process start to exit (median of five), bin/capless.mjs as users run it. */
  cliStartMs: { get: number; describe: number; apply: number };
  /** One full resync of the ready fleet, per cluster. */
  resyncPerCluster: { reconciles: number; storeReads: number; storeWrites: number; queueMessages: number };
  /** Objects of the run still in the store at the end (0 when every delete went through). */
  objectsLeft: number;
  /** `--simulate-aws`: the run's per-cluster figures and the fleet projected from them (bench/aws-projection.ts). */
  simulation?: { storeLatencyMs: number; concurrency: number; sample: SampleFigures; projections: FleetProjection[] };
  /** Set by `--faults`: what was injected and what it cost. */
  faults?: FaultReport;
  /** The counts the cost model priced: one resync pass of one cluster, and one cluster's lifecycle. */
  costInputs: { resyncPerCluster: OperationCounts; lifecyclePerCluster: OperationCounts; assumptions: CostAssumptions };
  cost: {
    perClusterLifecycleUSD: number;
    perClusterLifecycle: CostLines;
    fleetAtRestMonthlyUSD: number;
    /** The deployment (ADR 0110: one shared work queue with a dispatcher, resync one message per cluster). */
    fleetAtRest: FleetAtRest;
    /** The same counts on the topology ADR 0110 replaced (ADR 0003: one queue per kind, resync one message per object). */
    queuePerKind: { perClusterLifecycleUSD: number; fleetAtRest: FleetAtRest };
    assumptions: string[];
  };
}

/** The terminal table: one figure per line, with the target where there is one. */
export function formatReport(r: BenchReport): string {
  const rows: Array<[string, string, string?]> = [
    ['clusters', `${r.readyClusters}/${r.clusters} ready (${r.controlPlaneReplicas} CP + ${r.workerReplicas} worker machines), store ${r.store}, ${r.reconcileWorkers > 0 ? `${r.reconcileWorkers} reconcile worker threads` : 'reconcilers on the main thread'}, keys ${r.keyAlgorithm}, ${r.path === 'topology' ? 'through a ClusterClass (spec.topology)' : 'parts written directly'}`],
    ['objects', `${r.objects} (${r.machines} Machines)`],
    ['machine', `${r.machine.cores} cores, load ${r.machine.loadAverage1m.toFixed(1)} at start`],
    ['ready', `${fixed(r.readySeconds, 1)} s`],
    ['deleted', `${fixed(r.deleteSeconds, 1)} s`],
    ['reconciles / object', fixed(r.reconcilesPerObject, 2)],
    ['converge reconciles / reconciled object', `${fixed(r.convergeReconcilesPerReconciledObject, 2)} (${r.reconciledObjects} objects)`, '≤ 4'],
    ['store reads / object', fixed(r.storeReadsPerObject, 2), '≤ 8'],
    ['store writes / object', fixed(r.storeWritesPerObject, 2)],
    ['Machine writes / Machine', fixed(r.machineWritesPerMachine, 2), '≤ 11'],
    ['queue messages / object', fixed(r.queueMessagesPerObject, 2)],
    ['failed / dead-lettered', `${r.failedReconciles} / ${r.deadLettered}`],
    ['change → reconcile start p50 / p99 (create and delete, not the resync)', `${fixed(r.latencyMs.p50, 0)} / ${fixed(r.latencyMs.p99, 0)} ms`, 'at 50 clusters: ≤ 20 / ≤ 500 ms'],
    ['reconcile mean', `${fixed(r.reconcileMsMean, 1)} ms`],
    ['peak RSS', `${fixed(r.peakRssMB, 0)} MB`],
    ['capless CLI start get / describe / apply', `${fixed(r.cliStartMs.get, 0)} / ${fixed(r.cliStartMs.describe, 0)} / ${fixed(r.cliStartMs.apply, 0)} ms`, '≤ 300 ms'],
    ['raw store writes/s', fixed(r.rawStoreWritesPerSecond, 0)],
    ['control plane writes/s', `${fixed(r.controlPlaneStoreWritesPerSecond, 0)} (${fixed(100 * r.controlPlaneFractionOfRaw, 0)}% of raw)`, '≥ 50 % of raw'],
    ['resync / cluster', `${fixed(r.resyncPerCluster.reconciles, 1)} reconciles, ${fixed(r.resyncPerCluster.storeReads, 1)} reads, ${fixed(r.resyncPerCluster.storeWrites, 1)} writes`],
    ['cost / cluster lifecycle', `$${r.cost.perClusterLifecycleUSD.toFixed(6)}`],
    [`10 clusters at rest / month (shared work queue, ADR 0110)`, atRest(r.cost.fleetAtRest), '≤ $1'],
    [`  was: a queue per kind (ADR 0003)`, `${atRest(r.cost.queuePerKind.fleetAtRest)}; $${r.cost.queuePerKind.perClusterLifecycleUSD.toFixed(6)} / cluster lifecycle`],
  ];
  if (r.faults) {
    const f = r.faults;
    const injected = Object.entries(f.injected).map(([k, v]) => `${k} ${v}`).join(', ');
    rows.push(
      ['faults injected', injected],
      ['under faults', `${fixed(f.slowdown, 2)}× the clean run's ready + delete time (clean ${fixed(f.clean.readySeconds, 1)} s + ${fixed(f.clean.deleteSeconds, 1)} s)`],
      ['duplicated objects / lost updates', `${f.duplicatedObjects}${f.duplicatedObjects > 0 ? ` (${JSON.stringify(f.duplicatedByKind)})` : ''} / ${f.lostUpdates}`, '0 / 0'],
    );
  }
  if (r.simulation) {
    const { sample, storeLatencyMs, concurrency } = r.simulation;
    rows.push([
      'simulated AWS (this run)',
      `store call +${storeLatencyMs} ms, ${concurrency} reconciles at once: ${fixed(sample.handlerSeconds * 1000, 1)} ms / reconcile, ${fixed(sample.convergeReconciles, 1)} + ${fixed(sample.deleteReconciles, 1)} reconciles and ${fixed(sample.writeUnits, 0)} WRU / cluster`,
    ]);
    for (const p of r.simulation.projections) {
      rows.push([
        `  ${p.clusters} clusters at C=${p.concurrency}`,
        `ready ${fixed(p.readySeconds, 0)} s, deleted ${fixed(p.deleteSeconds, 0)} s, $${p.costPerClusterUSD.toFixed(5)} / cluster, ${fixed(p.writeUnitsPerSecond, 0)} WRU/s (${p.partitionsNeeded} partitions/shards); first limit: ${p.firstLimit}`,
      ]);
    }
  }
  const width = Math.max(...rows.map(([name]) => name.length));
  const valueWidth = Math.max(...rows.map(([, value]) => value.length));
  return rows
    .map(([name, value, target]) => `${name.padEnd(width)}  ${value.padEnd(valueWidth)}${target ? `  target ${target}` : ''}`)
    .join('\n');
}

function atRest(f: FleetAtRest): string {
  return `$${f.totalUSD.toFixed(2)} (resync every ${f.resyncSeconds} s $${f.resyncUSD.toFixed(2)}, idle SQS polls $${f.idlePollingUSD.toFixed(2)}, storage $${f.storageUSD.toFixed(4)}) [${f.topology}]`;
}

function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}
