/**
 * `npm run bench -- --simulate-aws`: from one measured run of the real reconcilers (each store
 * call delayed by DynamoDB's per-call latency, `--concurrency` reconciles at once), what a fleet
 * of N clusters would take on AWS at Lambda concurrency C. A model, with its inputs printed.
 */

/** What the sample run measured, per cluster unless it says otherwise. */
export interface SampleFigures {
  /** Clusters in the sample run. */
  clusters: number;
  /** Create → every cluster ready, in the sample: the critical path no concurrency shortens. */
  readySeconds: number;
  deleteSeconds: number;
  /** Reconciles per cluster, create → ready. */
  convergeReconciles: number;
  /** Reconciles per cluster, delete → gone. */
  deleteReconciles: number;
  /** Mean handler wall time per reconcile, the simulated store latency included. */
  handlerSeconds: number;
  /** Table write units per cluster over its lifecycle: objects, indexes and work records (ADR 0002). */
  writeUnits: number;
  /** Cost per cluster lifecycle (bench/cost-model.ts). */
  costUSD: number;
}

/** AWS limits the projection checks (../shared/reference/anchors.md, 2026). */
export interface AwsLimits {
  /** Lambda concurrent executions per account and Region (default quota). */
  accountConcurrency: number;
  /** An SQS event source starts this many concurrent batches … */
  sqsInitialConcurrency: number;
  /** … and adds up to this many a minute. */
  sqsRampPerMinute: number;
  /** On-demand table throughput, write units a second (default, adjustable). */
  tableWriteUnitsPerSecond: number;
  /** One partition (and so one stream shard) takes at most this many write units a second. */
  partitionWriteUnitsPerSecond: number;
}

export const AWS_LIMITS: AwsLimits = {
  accountConcurrency: 1000,
  sqsInitialConcurrency: 5,
  sqsRampPerMinute: 300,
  tableWriteUnitsPerSecond: 40_000,
  partitionWriteUnitsPerSecond: 1000,
};

export interface FleetProjection {
  clusters: number;
  concurrency: number;
  /** Create → all ready. */
  readySeconds: number;
  /** Delete → all gone. */
  deleteSeconds: number;
  costPerClusterUSD: number;
  /** Mean table write units a second over the lifecycle (create → ready → delete → gone). */
  writeUnitsPerSecond: number;
  /** Partitions (and stream shards) the table needs at that write rate. */
  partitionsNeeded: number;
  /** What bounds the time first. */
  firstLimit: string;
}

/**
 * Time for `workSeconds` of handler time at up to `cap` concurrent executions, with the SQS event
 * source's ramp (5 at first, +300 a minute) — the integral of the concurrency over time.
 */
export function secondsForWork(workSeconds: number, cap: number, limits: AwsLimits = AWS_LIMITS): number {
  if (workSeconds <= 0) return 0;
  const start = Math.min(cap, limits.sqsInitialConcurrency);
  const ratePerSecond = limits.sqsRampPerMinute / 60;
  const rampSeconds = (cap - start) / ratePerSecond;
  const rampWork = start * rampSeconds + (ratePerSecond * rampSeconds * rampSeconds) / 2;
  if (workSeconds >= rampWork) return rampSeconds + (workSeconds - rampWork) / cap;
  // Still ramping: start·t + r·t²/2 = work.
  return (-start + Math.sqrt(start * start + 2 * ratePerSecond * workSeconds)) / ratePerSecond;
}

/** One cell of the README table: `clusters` clusters at `concurrency` concurrent reconciles. */
export function projectFleet(sample: SampleFigures, clusters: number, concurrency: number, limits: AwsLimits = AWS_LIMITS): FleetProjection {
  const cap = Math.min(concurrency, limits.accountConcurrency);
  const rampSeconds = (cap - Math.min(cap, limits.sqsInitialConcurrency)) / (limits.sqsRampPerMinute / 60);
  const phase = (criticalPath: number, reconcilesPerCluster: number) => {
    const throughput = secondsForWork(clusters * reconcilesPerCluster * sample.handlerSeconds, cap, limits);
    return { seconds: Math.max(criticalPath, throughput), bound: throughput <= criticalPath ? 'chain' : throughput < rampSeconds ? 'ramp' : 'cap' };
  };
  const ready = phase(sample.readySeconds, sample.convergeReconciles);
  const gone = phase(sample.deleteSeconds, sample.deleteReconciles);
  const unthrottled = ready.seconds + gone.seconds;
  const demanded = unthrottled === 0 ? 0 : (clusters * sample.writeUnits) / unthrottled;
  // Past the table's write limit DynamoDB throttles: the lifecycle stretches to fit under it.
  const stretch = Math.max(1, demanded / limits.tableWriteUnitsPerSecond);
  const writeUnitsPerSecond = demanded / stretch;
  const bounds = [ready.bound, gone.bound];
  return {
    clusters,
    concurrency,
    readySeconds: ready.seconds * stretch,
    deleteSeconds: gone.seconds * stretch,
    costPerClusterUSD: sample.costUSD,
    writeUnitsPerSecond,
    partitionsNeeded: Math.max(1, Math.ceil(writeUnitsPerSecond / limits.partitionWriteUnitsPerSecond)),
    firstLimit:
      concurrency > limits.accountConcurrency
        ? `account concurrency (${limits.accountConcurrency})`
        : stretch > 1
          ? `table throughput (${limits.tableWriteUnitsPerSecond} WRU/s)`
          : bounds.includes('cap')
            ? cap === limits.accountConcurrency
              ? `account concurrency (${limits.accountConcurrency})`
              : `Lambda concurrency ${concurrency}`
            : bounds.includes('ramp')
              ? `SQS event-source scaling (+${limits.sqsRampPerMinute} concurrent a minute)`
              : 'the reconcile chain (critical path), not capacity',
  };
}

/** The README table's cells: 1,000 and 10,000 clusters at C = 10, 100, 1,000. */
export function projectionGrid(sample: SampleFigures, limits: AwsLimits = AWS_LIMITS): FleetProjection[] {
  return [1000, 10_000].flatMap((clusters) => [10, 100, 1000].map((c) => projectFleet(sample, clusters, c, limits)));
}
