import { AWS_PRICES, PRICES_AS_OF } from './price-table.js';

/** Counted operations of some stretch of work (a lifecycle, one resync), in absolute numbers. */
export interface OperationCounts {
  /** Reconciles run (one reconcile Lambda invocation each, at worst). */
  reconciles: number;
  /** Sum of reconcile durations, ms. */
  reconcileMs: number;
  /** Store writes: one stream record each, routed by the router Lambda. */
  storeWrites: number;
  readUnits: number;
  writeUnits: number;
  /** Reconcile requests sent to the work queues. */
  queueMessages: number;
  /** Management API requests from clients. */
  apiRequests: number;
}

/** What the model assumes beyond the counts; all of it lands in the report. */
export interface CostAssumptions {
  lambdaMemoryMb: number;
  /** Stream records per router invocation (the mapping allows 100; 1 is the quiet-traffic worst case). */
  streamRecordsPerRouterInvocation: number;
  /** Router time per invocation, ms (it reads the changed object's watchers from the record). */
  routerMsPerInvocation: number;
  /** Messages per reconcile Lambda invocation (the mapping allows 10). */
  messagesPerReconcileInvocation: number;
  /** SQS requests per message: SendMessage, ReceiveMessage, DeleteMessage. */
  sqsRequestsPerMessage: number;
  /** Work queues polled by Lambda (one per reconciled kind, lib/stacks/reconciled-kinds.ts). */
  workQueues: number;
  /** Pollers an idle SQS event-source mapping keeps long-polling. */
  idlePollersPerQueue: number;
  /** ReceiveMessage wait time of those long polls, s. */
  longPollSeconds: number;
  /** Average stored object size, bytes (for storage). */
  averageObjectBytes: number;
  objectsPerCluster: number;
}

export const DEFAULT_COST_ASSUMPTIONS: Omit<CostAssumptions, 'averageObjectBytes' | 'objectsPerCluster'> = {
  lambdaMemoryMb: 512,
  streamRecordsPerRouterInvocation: 1,
  routerMsPerInvocation: 20,
  messagesPerReconcileInvocation: 1,
  sqsRequestsPerMessage: 3,
  workQueues: 8,
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

/** Prices counted operations; pure. */
export function priceOperations(ops: OperationCounts, a: CostAssumptions): CostLines {
  const routerInvocations = ops.storeWrites / a.streamRecordsPerRouterInvocation;
  const reconcileInvocations = ops.reconciles / a.messagesPerReconcileInvocation;
  const gb = a.lambdaMemoryMb / 1024;
  const gbSeconds = gb * ((ops.reconcileMs + routerInvocations * a.routerMsPerInvocation) / 1000);
  const lines = {
    lambdaRequestsUSD: (routerInvocations + reconcileInvocations) * AWS_PRICES.lambdaPerRequest.usd,
    lambdaDurationUSD: gbSeconds * AWS_PRICES.lambdaArm64PerGbSecond.usd,
    dynamoDbUSD: ops.readUnits * AWS_PRICES.dynamoDbPerReadUnit.usd + ops.writeUnits * AWS_PRICES.dynamoDbPerWriteUnit.usd,
    sqsUSD: ops.queueMessages * a.sqsRequestsPerMessage * AWS_PRICES.sqsPerRequest.usd,
    apiGatewayUSD: ops.apiRequests * AWS_PRICES.apiGatewayPerRequest.usd,
  };
  return { ...lines, totalUSD: Object.values(lines).reduce((sum, v) => sum + v, 0) };
}

export interface FleetAtRest {
  clusters: number;
  resyncSeconds: number;
  resyncUSD: number;
  idlePollingUSD: number;
  storageUSD: number;
  totalUSD: number;
}

const SECONDS_PER_MONTH = 30 * 24 * 3600;

/**
 * A fleet of `clusters` doing nothing for a 30-day month: one measured resync pass per cluster
 * every `resyncSeconds` (plus its scheduler invocation), the SQS long polls of idle event-source
 * mappings, and storage.
 */
export function fleetAtRest(resyncPerCluster: OperationCounts, clusters: number, resyncSeconds: number, a: CostAssumptions): FleetAtRest {
  const resyncsPerMonth = SECONDS_PER_MONTH / resyncSeconds;
  const perResync = priceOperations(resyncPerCluster, a).totalUSD * clusters;
  const schedule = AWS_PRICES.schedulerPerInvocation.usd + AWS_PRICES.lambdaPerRequest.usd;
  const resyncUSD = resyncsPerMonth * (perResync + schedule);
  const pollsPerMonth = a.workQueues * a.idlePollersPerQueue * (SECONDS_PER_MONTH / a.longPollSeconds);
  const idlePollingUSD = pollsPerMonth * AWS_PRICES.sqsPerRequest.usd;
  const storageGb = (clusters * a.objectsPerCluster * a.averageObjectBytes * 4) / 1024 ** 3;
  const storageUSD = storageGb * AWS_PRICES.dynamoDbPerGbMonth.usd;
  return { clusters, resyncSeconds, resyncUSD, idlePollingUSD, storageUSD, totalUSD: resyncUSD + idlePollingUSD + storageUSD };
}

/** The assumptions and the price table, as the report prints them. */
export function describeAssumptions(a: CostAssumptions): string[] {
  return [
    `prices: ${PRICES_AS_OF}; free tiers not deducted`,
    ...Object.values(AWS_PRICES).map((p) => p.source),
    `Lambda arm64 at ${a.lambdaMemoryMb} MB; reconcile duration = measured in-process handler time (an upper bound: it includes waiting on the shared event loop)`,
    `router: one invocation per ${a.streamRecordsPerRouterInvocation} stream record(s), ${a.routerMsPerInvocation} ms each (assumed, not measured)`,
    `reconcile Lambda: ${a.messagesPerReconcileInvocation} message(s) per invocation; SQS: ${a.sqsRequestsPerMessage} requests per message (send, receive, delete)`,
    'DynamoDB units estimated from item JSON size: reads ceil(bytes/4 KB) per call, writes ceil(bytes/1 KB) × (table + each index holding the item); conditional writes that fail are counted',
    `at rest: ${a.workQueues} work queues × ${a.idlePollersPerQueue} idle Lambda pollers × one ${a.longPollSeconds} s ReceiveMessage long poll each; storage at 4× the JSON size (indexes)`,
  ];
}
