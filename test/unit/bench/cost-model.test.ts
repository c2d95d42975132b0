import { describe, expect, it } from 'vitest';
import {
  type CostAssumptions,
  DEFAULT_COST_ASSUMPTIONS,
  fleetAtRest,
  idlePollsPerMonth,
  type OperationCounts,
  priceOperations,
  resyncOperations,
} from '../../../bench/cost-model.js';
import { AWS_PRICES } from '../../../bench/price-table.js';
import { queuePerKindTopology, sharedQueueTopology, type WorkTopology } from '../../../bench/work-topology.js';

const assumptions: CostAssumptions = { ...DEFAULT_COST_ASSUMPTIONS, averageObjectBytes: 2048, objectsPerCluster: 33, kindsPerCluster: 8 };
const perKind = queuePerKindTopology(8);
const shared = sharedQueueTopology();
const MONTH = 30 * 24 * 3600;

/** One resync pass of one cluster, shaped like the benchmark's (17 reconciled objects). */
const resync: OperationCounts = {
  reconciles: 17,
  reconcileMs: 17 * 30,
  storeWrites: 0,
  readUnits: 58,
  writeUnits: 0,
  workRecordWrites: 17 * 3,
  queueMessages: 17,
  apiRequests: 0,
};

describe('idle polling per topology', () => {
  it.each<[string, WorkTopology, number]>([
    ['one queue per kind (8 kinds)', perKind, 8],
    ['one shared work queue', shared, 1],
    ['one queue per kind after two more kinds register', queuePerKindTopology(10), 10],
  ])('%s: polled queues × pollers × polls a month', (_name, topology, queues) => {
    const polls = queues * assumptions.idlePollersPerQueue * (MONTH / assumptions.longPollSeconds);
    expect(idlePollsPerMonth(assumptions, topology)).toBe(polls);
    const atRest = fleetAtRest(resync, 10, 600, assumptions, topology);
    expect(atRest.idlePollingUSD).toBeCloseTo(polls * AWS_PRICES.sqsPerRequest.usd, 9);
  });
});

describe('resync batching', () => {
  it('per object: the measured counts as they are', () => {
    expect(resyncOperations(resync, assumptions, perKind)).toEqual(resync);
  });

  it('per cluster: one message, one invocation per kind, no enqueue write', () => {
    const batched = resyncOperations(resync, assumptions, shared);
    expect(batched).toEqual({ ...resync, queueMessages: 1, reconcileInvocations: 8, workRecordWrites: 34 });
  });
});

describe('priceOperations', () => {
  const lambda = AWS_PRICES.lambdaPerRequest.usd;
  it.each<[string, WorkTopology, OperationCounts, number]>([
    ['per kind: one invocation per reconcile', perKind, resync, 17],
    ['shared queue: a dispatcher invocation per message on top', shared, resync, 17 + 17],
    ['shared queue, batched resync: dispatcher + one per kind', shared, resyncOperations(resync, assumptions, shared), 1 + 8],
  ])('%s', (_name, topology, ops, invocations) => {
    expect(priceOperations(ops, assumptions, topology).lambdaRequestsUSD).toBeCloseTo(invocations * lambda, 12);
  });

  it('work-record writes are priced as write units', () => {
    const without = priceOperations({ ...resync, workRecordWrites: 0 }, assumptions, perKind);
    const withWrites = priceOperations(resync, assumptions, perKind);
    expect(withWrites.dynamoDbUSD - without.dynamoDbUSD).toBeCloseTo(51 * AWS_PRICES.dynamoDbPerWriteUnit.usd, 12);
  });

  it('the lines add up to the total', () => {
    const lines = priceOperations(resync, assumptions, shared);
    expect(lines.totalUSD).toBeCloseTo(lines.lambdaRequestsUSD + lines.lambdaDurationUSD + lines.dynamoDbUSD + lines.sqsUSD + lines.apiGatewayUSD, 15);
  });
});

describe('a 10-cluster fleet at rest', () => {
  it.each<[number]>([[600], [3600]])('the shared queue with a batched resync costs less than one queue per kind (resync every %i s)', (period) => {
    const today = fleetAtRest(resync, 10, period, assumptions, perKind);
    const next = fleetAtRest(resync, 10, period, assumptions, shared);
    expect(next.idlePollingUSD).toBeLessThan(today.idlePollingUSD);
    expect(next.resyncUSD).toBeLessThan(today.resyncUSD);
    expect(next.totalUSD).toBeCloseTo(next.resyncUSD + next.idlePollingUSD + next.storageUSD, 12);
    expect(next.topology).toBe('shared-queue');
  });

  it('a longer resync period costs proportionally less resync', () => {
    const tenMinutes = fleetAtRest(resync, 10, 600, assumptions, shared);
    const hourly = fleetAtRest(resync, 10, 3600, assumptions, shared);
    expect(hourly.resyncUSD * 6).toBeCloseTo(tenMinutes.resyncUSD, 9);
    expect(hourly.idlePollingUSD).toBe(tenMinutes.idlePollingUSD);
  });
});

describe('the deployed topology (ADR 0110, built)', () => {
  it('keeps a 10-cluster fleet at rest under $1 a month at the deployed hourly resync, where a queue per kind does not', () => {
    expect(fleetAtRest(resync, 10, 3600, assumptions, shared).totalUSD).toBeLessThan(1);
    expect(fleetAtRest(resync, 10, 3600, assumptions, perKind).totalUSD).toBeGreaterThan(1);
  });
});
