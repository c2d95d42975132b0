import { describe, expect, it } from 'vitest';
import { DEFAULT_BENCH_OPTIONS } from '../../bench/args.js';
import { formatReport } from '../../bench/report.js';
import { runBenchmark } from '../../bench/run-benchmark.js';

const sum = (record: Record<string, number>) => Object.values(record).reduce((a, b) => a + b, 0);

/** The benchmark at a tiny size, so `npm run bench` cannot rot: the JSON is complete and adds up. */
describe.each(['memory', 'dynamodb'] as const)('npm run bench on the %s store (3 clusters)', (store) => {
  it('creates, readies and deletes every cluster and reports self-consistent figures', async () => {
    // 1 CP + 1 worker keeps the embedded-DynamoDB run (dynalite: ~6 ms of CPU per call) short.
    const options = { ...DEFAULT_BENCH_OPTIONS, clusters: 3, workerReplicas: 1, store, timeoutSeconds: 100 };
    const r = await runBenchmark(options);
    const perCluster = 1 + options.controlPlaneReplicas + options.workerReplicas;

    expect(r.completed).toBe(true);
    expect(r.readyClusters).toBe(3);
    expect(r.machines).toBe(3 * (perCluster - 1));
    expect(r.objectsByKind.Machine).toBe(r.machines);
    expect(sum(r.objectsByKind)).toBe(r.objects);
    // 7 objects per cluster from the client, each created once and deleted once.
    expect(r.apiRequests).toBe(3 * 7 * 2);
    expect(r.machine.cores).toBeGreaterThan(0);
    expect(sum(r.writesByKind)).toBe(r.storeWrites);
    expect(sum(r.readsByKind)).toBe(r.storeReads);
    expect(r.reconcilesPerObject * r.objects).toBeCloseTo(r.reconciles, 6);
    expect(r.storeWritesPerObject * r.objects).toBeCloseTo(r.storeWrites, 6);
    expect(r.storeReadsPerObject * r.objects).toBeCloseTo(r.storeReads, 6);
    expect(r.queueMessagesPerObject * r.objects).toBeCloseTo(r.queueMessages, 6);
    // every object is written at least when created and when deleted (or garbage-collected)
    expect(r.storeWrites).toBeGreaterThanOrEqual(r.objects);
    expect(r.machineWritesPerMachine).toBeGreaterThanOrEqual(2);
    expect(r.latencyMs.p50).toBeLessThanOrEqual(r.latencyMs.p99);
    expect(r.readySeconds).toBeGreaterThan(0);
    expect(r.deleteSeconds).toBeGreaterThan(0);
    expect(r.peakRssMB).toBeGreaterThan(0);
    expect(r.rawStoreWritesPerSecond).toBeGreaterThan(0);
    expect(r.controlPlaneStoreWritesPerSecond).toBeGreaterThan(0);
    expect(r.controlPlaneFractionOfRaw).toBeCloseTo(r.controlPlaneStoreWritesPerSecond / r.rawStoreWritesPerSecond, 9);
    expect(r.resyncPerCluster.reconciles).toBeGreaterThan(0);
    expect(r.deadLettered).toBe(0);
    // Measured, never asserted against a time: each verb ran and took some.
    expect(Object.values(r.cliStartMs).every((ms) => ms > 0)).toBe(true);

    const { perClusterLifecycle: lines, fleetAtRest: rest } = r.cost;
    expect(r.cost.perClusterLifecycleUSD).toBeGreaterThan(0);
    expect(lines.totalUSD).toBeCloseTo(
      lines.lambdaRequestsUSD + lines.lambdaDurationUSD + lines.dynamoDbUSD + lines.sqsUSD + lines.apiGatewayUSD,
      12,
    );
    expect(r.cost.fleetAtRestMonthlyUSD).toBeGreaterThan(0);
    expect(rest.totalUSD).toBeCloseTo(rest.resyncUSD + rest.idlePollingUSD + rest.storageUSD, 12);
    expect(rest.clusters).toBe(10);
    expect(r.cost.assumptions.length).toBeGreaterThan(3);

    const table = formatReport(r);
    expect(table).toContain('reconciles / object');
    expect(table).toContain('capless CLI start get / describe / apply');
    expect(table).toContain('10 clusters at rest / month');
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });
});
