import { AWS_PRICES, PRICES_AS_OF } from './price-table.js';
import { type WorkTopology, describeTopology } from './work-topology.js';

/** Counted operations of some stretch of work (a lifecycle, one resync), in absolute numbers. */
export interface OperationCounts {
  /** Reconciles run. */
  reconciles: number;
  /** Sum of reconcile durations, ms. */
  reconcileMs: number;
  /** Store writes: one stream record each, routed by the router Lambda. */
  storeWrites: number;
  readUnits: number;
  writeUnits: number;
  /**
   * Single-item writes to the work records that keep one reconcile in flight (ADR 0002): one per
   * enqueue (failed conditional writes cost a unit too), one to acquire and one to release per
   * reconcile. 1 WRU each (the record is far under 1 KB).
   */
  workRecordWrites: number;
  /** Reconcile requests sent to the work queues (enqueues that were not coalesced). */
  queueMessages: number;
  /** Management API requests from clients. */
  apiRequests: number;
  /**
   * Reconcile Lambda invocations, when known (a batched resync fans one message out to one
   * invocation per kind); otherwise reconciles / messagesPerReconcileInvocation.
   */
  reconcileInvocations?: number;
}

/** What the model assumes beyond the counts; all of it lands in the report. */
export interface CostAssumptions {
  lambdaMemoryMb: number;
  /** Stream records per router invocation (the mapping allows 100; 1 is the quiet-traffic worst case). */
  streamRecordsPerRouterInvocation: number;
  /** Router time per invocation, ms (it reads the changed object's watchers from the record). */
  routerMsPerInvocation: number;
  /** Dispatcher time per message, ms (parse, one async Lambda Invoke). */
  dispatchMsPerMessage: number;
  /** Messages per reconcile Lambda invocation (the mapping allows 10). */
  messagesPerReconcileInvocation: number;
  /** SQS requests per message: SendMessage, ReceiveMessage, DeleteMessage. */
  sqsRequestsPerMessage: number;
  /** Pollers an idle SQS event-source mapping keeps long-polling. */
  idlePollersPerQueue: number;
  /** ReceiveMessage wait time of those long polls, s. */
  longPollSeconds: number;
  /** Average stored object size, bytes (for storage). */
  averageObjectBytes: number;
  objectsPerCluster: number;
  /** Reconciled kinds a cluster has objects of (a batched resync invokes each kind's function once). */
  kindsPerCluster: number;
}

export const DEFAULT_COST_ASSUMPTIONS: Omit<CostAssumptions, 'averageObjectBytes' | 'objectsPerCluster' | 'kindsPerCluster'> = {
  lambdaMemoryMb: 512,
  streamRecordsPerRouterInvocation: 1,
  routerMsPerInvocation: 20,
  dispatchMsPerMessage: 20,
  messagesPerReconcileInvocation: 1,
  sqsRequestsPerMessage: 3,
  idlePollersPerQueue: 5,
  longPollSeconds: 20,
};

export interface CostLines {
  lambdaRequestsUSD: number;
  lambdaDurationUSD: number;
  dynamoDbUSD: number;
  sqsUSD: number;
  apiGatewayUSD: number;
  totalUSD: number;
}

/** Prices counted operations on a work topology; pure. */
export function priceOperations(ops: OperationCounts, a: CostAssumptions, topology: WorkTopology): CostLines {
  const routerInvocations = ops.storeWrites / a.streamRecordsPerRouterInvocation;
  const reconcileInvocations = ops.reconcileInvocations ?? ops.reconciles / a.messagesPerReconcileInvocation;
  const dispatchInvocations = topology.dispatcher ? ops.queueMessages : 0;
  const gb = a.lambdaMemoryMb / 1024;
  const ms = ops.reconcileMs + routerInvocations * a.routerMsPerInvocation + dispatchInvocations * a.dispatchMsPerMessage;
  const lines = {
    lambdaRequestsUSD: (routerInvocations + reconcileInvocations + dispatchInvocations) * AWS_PRICES.lambdaPerRequest.usd,
    lambdaDurationUSD: gb * (ms / 1000) * AWS_PRICES.lambdaArm64PerGbSecond.usd,
    dynamoDbUSD:
      ops.readUnits * AWS_PRICES.dynamoDbPerReadUnit.usd +
      (ops.writeUnits + ops.workRecordWrites) * AWS_PRICES.dynamoDbPerWriteUnit.usd,
    sqsUSD: ops.queueMessages * a.sqsRequestsPerMessage * AWS_PRICES.sqsPerRequest.usd,
    apiGatewayUSD: ops.apiRequests * AWS_PRICES.apiGatewayPerRequest.usd,
  };
  return { ...lines, totalUSD: Object.values(lines).reduce((sum, v) => sum + v, 0) };
}

/**
 * What one resync pass of one cluster costs on a topology: as measured (one message per object)
 * or batched into one message per cluster, which the dispatcher fans out as one invocation per
 * kind and whose reconciles take their lease without a separate enqueue write.
 */
export function resyncOperations(measured: OperationCounts, a: CostAssumptions, topology: WorkTopology): OperationCounts {
  if (topology.resyncBatching === 'per-object') return measured;
  return {
    ...measured,
    queueMessages: 1,
    reconcileInvocations: a.kindsPerCluster,
    workRecordWrites: 2 * measured.reconciles,
  };
}

export interface FleetAtRest {
  topology: string;
  clusters: number;
  resyncSeconds: number;
  resyncUSD: number;
  idlePollingUSD: number;
  storageUSD: number;
  totalUSD: number;
}

const SECONDS_PER_MONTH = 30 * 24 * 3600;

/** ReceiveMessage long polls per month that idle event-source mappings make on a topology. */
export function idlePollsPerMonth(a: CostAssumptions, topology: WorkTopology): number {
  return topology.polledQueues * a.idlePollersPerQueue * (SECONDS_PER_MONTH / a.longPollSeconds);
}

/**
 * A fleet of `clusters` doing nothing for a 30-day month: one measured resync pass per cluster
 * every `resyncSeconds` (plus its scheduler invocation), priced on `topology`; the SQS long polls
 * of its idle event-source mappings; and storage.
 */
export function fleetAtRest(
  resyncPerCluster: OperationCounts,
  clusters: number,
  resyncSeconds: number,
  a: CostAssumptions,
  topology: WorkTopology,
): FleetAtRest {
  const resyncsPerMonth = SECONDS_PER_MONTH / resyncSeconds;
  const perResync = priceOperations(resyncOperations(resyncPerCluster, a, topology), a, topology).totalUSD * clusters;
  const schedule = AWS_PRICES.schedulerPerInvocation.usd + AWS_PRICES.lambdaPerRequest.usd;
  const resyncUSD = resyncsPerMonth * (perResync + schedule);
  const idlePollingUSD = idlePollsPerMonth(a, topology) * AWS_PRICES.sqsPerRequest.usd;
  const storageGb = (clusters * a.objectsPerCluster * a.averageObjectBytes * 4) / 1024 ** 3;
  const storageUSD = storageGb * AWS_PRICES.dynamoDbPerGbMonth.usd;
  return {
    topology: topology.name,
    clusters,
    resyncSeconds,
    resyncUSD,
    idlePollingUSD,
    storageUSD,
    totalUSD: resyncUSD + idlePollingUSD + storageUSD,
  };
}

/** The assumptions and the price table, as the report prints them. */
export function describeAssumptions(a: CostAssumptions, topologies: readonly WorkTopology[]): string[] {
  return [
    `prices: ${PRICES_AS_OF}; free tiers not deducted`,
    ...Object.values(AWS_PRICES).map((p) => p.source),
    `Lambda arm64 at ${a.lambdaMemoryMb} MB; reconcile duration = measured in-process handler time (an upper bound: it includes waiting on the shared event loop)`,
    `router: one invocation per ${a.streamRecordsPerRouterInvocation} stream record(s), ${a.routerMsPerInvocation} ms each (assumed, not measured)`,
    `reconcile Lambda: ${a.messagesPerReconcileInvocation} message(s) per invocation; SQS: ${a.sqsRequestsPerMessage} requests per message (send, receive, delete)`,
    'DynamoDB units estimated from item JSON size: reads ceil(bytes/4 KB) per call, writes ceil(bytes/1 KB) × (table + each index holding the item); conditional writes that fail are counted',
    'work records (ADR 0002): 1 WRU per enqueue (coalesced ones too) + 2 per reconcile (acquire, release); a batched resync skips the enqueue write',
    `idle: ${a.idlePollersPerQueue} Lambda pollers per polled queue × one ${a.longPollSeconds} s ReceiveMessage long poll each; storage at 4× the JSON size (indexes)`,
    ...topologies.map(describeTopology),
  ];
}
