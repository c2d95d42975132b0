import { describe, expect, it } from 'vitest';
import { AWS_LIMITS, projectFleet, projectionGrid, type SampleFigures, secondsForWork } from '../../../bench/aws-projection.js';

const sample: SampleFigures = {
  clusters: 5,
  readySeconds: 20,
  deleteSeconds: 10,
  convergeReconciles: 80,
  deleteReconciles: 20,
  handlerSeconds: 0.05,
  writeUnits: 400,
  costUSD: 0.0017,
};

describe('secondsForWork (SQS event source ramp: 5 concurrent, +300 a minute, up to the cap)', () => {
  it.each([
    // At a cap of 5 there is no ramp: work / 5.
    [100, 5, 20],
    // Cap 10: 1 s of ramp (5 → 10) does 7.5 s of work, the rest runs at 10.
    [107.5, 10, 11],
    // Within the ramp: 5t + 2.5t² = 7.5 → t = 1.
    [7.5, 1000, 1],
    [0, 100, 0],
  ])('%s s of work at a cap of %s takes %s s', (work, cap, seconds) => {
    expect(secondsForWork(work, cap)).toBeCloseTo(seconds, 9);
  });
});

describe('projectFleet', () => {
  it.each<[string, number, number, Partial<ReturnType<typeof projectFleet>>]>([
    ['1,000 clusters at 10: concurrency-bound', 1000, 10, { firstLimit: 'Lambda concurrency 10' }],
    ['1,000 clusters at 1,000: the event source is still scaling up', 1000, 1000, { firstLimit: 'SQS event-source scaling (+300 concurrent a minute)' }],
    ['100,000 clusters at 1,000: the table write limit binds before the account limit', 100_000, 1000, { firstLimit: 'table throughput (40000 WRU/s)' }],
    ['beyond the account limit', 1000, 2000, { firstLimit: 'account concurrency (1000)' }],
  ])('%s', (_name, clusters, concurrency, expected) => {
    expect(projectFleet(sample, clusters, concurrency)).toMatchObject(expected);
  });

  it('is bounded below by the critical path the sample measured, however high the concurrency', () => {
    const few = projectFleet(sample, 1, 1000);
    expect(few.readySeconds).toBe(sample.readySeconds);
    expect(few.deleteSeconds).toBe(sample.deleteSeconds);
    expect(few.firstLimit).toBe('the reconcile chain (critical path), not capacity');
  });

  it('derives the write rate and the partitions (stream shards) it needs from the lifecycle time', () => {
    const p = projectFleet(sample, 10_000, 100);
    expect(p.writeUnitsPerSecond).toBeCloseTo((10_000 * sample.writeUnits) / (p.readySeconds + p.deleteSeconds), 9);
    expect(p.partitionsNeeded).toBe(Math.ceil(p.writeUnitsPerSecond / AWS_LIMITS.partitionWriteUnitsPerSecond));
    expect(p.costPerClusterUSD).toBe(sample.costUSD);
  });

  it('names the table limit when the write rate passes it first, and stretches the lifecycle to fit under it', () => {
    const heavy = { ...sample, writeUnits: 400_000, handlerSeconds: 0.001 };
    const p = projectFleet(heavy, 10_000, 1000);
    expect(p.firstLimit).toBe('table throughput (40000 WRU/s)');
    expect(p.writeUnitsPerSecond).toBeCloseTo(AWS_LIMITS.tableWriteUnitsPerSecond, 6);
    expect(p.readySeconds + p.deleteSeconds).toBeCloseTo((10_000 * heavy.writeUnits) / AWS_LIMITS.tableWriteUnitsPerSecond, 6);
  });

  it('names the account limit when the work outlasts the ramp at a cap of 1,000', () => {
    const long = { ...sample, writeUnits: 1 };
    expect(projectFleet(long, 100_000, 1000).firstLimit).toBe('account concurrency (1000)');
  });

  it('gives the README grid: 1,000 and 10,000 clusters at 10, 100 and 1,000', () => {
    expect(projectionGrid(sample).map((p) => [p.clusters, p.concurrency])).toEqual([
      [1000, 10], [1000, 100], [1000, 1000], [10_000, 10], [10_000, 100], [10_000, 1000],
    ]);
  });
});
