/**
 * A DynamoDB Streams event source mapping played the way Lambda runs it
 * (https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html): each shard read in order from
 * the starting position, batches of up to BatchSize records, the function invoked synchronously,
 * then `decideStreamBatch` says how far to checkpoint, whether to retry (bisected) or to send a
 * description of the batch to the on-failure destination (the invocation record Lambda writes,
 * https://docs.aws.amazon.com/lambda/latest/dg/services-dynamodb-errors.html) and move on.
 */

import {
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { isRecord } from '../../../shared/contracts/json.js';
import { decideStreamBatch } from './batch-rules.js';
import type { DeployedFunction } from './deployed-function.js';

export interface StreamMapping {
  uuid: string;
  streamArn: string;
  functionArn: string;
  batchSize: number;
  startingPosition: 'TRIM_HORIZON' | 'LATEST';
  bisectOnError: boolean;
  reportBatchItemFailures: boolean;
  /** -1: until the record expires. */
  maxRetries: number;
  /** -1: no limit. */
  maxRecordAgeSeconds: number;
  /** Queue URL of the on-failure destination, if any. */
  onFailureQueueUrl?: string;
}

interface ShardState {
  shardId: string;
  iterator: string | undefined;
  pending: StreamRecord[];
  retries: number;
  batchLimit: number;
}

/** Binary attribute values as base64, the way Lambda's event carries them (the SDK gives bytes). */
function wireJson(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (value instanceof Date) return Math.floor(value.getTime() / 1000);
  if (Array.isArray(value)) return value.map(wireJson);
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wireJson(v)]));
  return value;
}

const POLL_IDLE_MS = 250;

export class StreamPoller {
  delivered = 0;
  batches = 0;
  retried = 0;
  /** Records sent to the on-failure destination. */
  discarded = 0;
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly shards = new Map<string, ShardState>();

  constructor(
    private readonly streams: DynamoDBStreamsClient,
    private readonly sqs: SQSClient,
    readonly mapping: StreamMapping,
    readonly fn: DeployedFunction,
    private readonly region: string,
  ) {}

  start(): void {
    this.running ??= this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  /** True when every shard has been read to its current end and nothing is pending. */
  get caughtUp(): boolean {
    return [...this.shards.values()].every((s) => s.pending.length === 0) && this.idleRounds > 0;
  }

  private idleRounds = 0;

  private async loop(): Promise<void> {
    while (!this.stopped) {
      try {
        const worked = await this.pollOnce();
        this.idleRounds = worked ? 0 : this.idleRounds + 1;
        if (!worked) await new Promise((resolve) => setTimeout(resolve, POLL_IDLE_MS));
      } catch (error) {
        if (this.stopped) return;
        this.fn.logTail.push(`[stream poller ${this.mapping.streamArn}] ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  private async pollOnce(): Promise<boolean> {
    const described = await this.streams.send(new DescribeStreamCommand({ StreamArn: this.mapping.streamArn }));
    let worked = false;
    for (const shard of described.StreamDescription?.Shards ?? []) {
      const shardId = shard.ShardId ?? '';
      let state = this.shards.get(shardId);
      if (!state) {
        const iterator = await this.streams.send(
          new GetShardIteratorCommand({ StreamArn: this.mapping.streamArn, ShardId: shardId, ShardIteratorType: this.mapping.startingPosition }),
        );
        state = { shardId, iterator: iterator.ShardIterator, pending: [], retries: 0, batchLimit: this.mapping.batchSize };
        this.shards.set(shardId, state);
      }
      if (await this.processShard(state)) worked = true;
    }
    return worked;
  }

  private async processShard(state: ShardState): Promise<boolean> {
    if (state.pending.length < state.batchLimit && state.iterator) {
      const read = await this.streams.send(new GetRecordsCommand({ ShardIterator: state.iterator, Limit: 1000 }));
      state.pending.push(...(read.Records ?? []));
      state.iterator = read.NextShardIterator;
    }
    if (state.pending.length === 0) return false;
    const batch = state.pending.slice(0, state.batchLimit);
    this.batches += 1;
    this.delivered += batch.length;
    const outcome = await this.fn.invoke({
      Records: batch.map((record) => Object.assign({}, wireJson(record), { eventSourceARN: this.mapping.streamArn, awsRegion: this.region })),
    });
    const oldest = batch[0]?.dynamodb?.ApproximateCreationDateTime;
    const decision = decideStreamBatch({
      sequenceNumbers: batch.map((r) => r.dynamodb?.SequenceNumber ?? ''),
      outcome,
      reportBatchItemFailures: this.mapping.reportBatchItemFailures,
      bisectOnError: this.mapping.bisectOnError,
      retriesSoFar: state.retries,
      maxRetries: this.mapping.maxRetries,
      oldestRecordAgeSeconds: oldest ? (Date.now() - oldest.getTime()) / 1000 : 0,
      maxRecordAgeSeconds: this.mapping.maxRecordAgeSeconds,
    });
    if (decision.action === 'checkpoint') {
      state.pending.splice(0, decision.processed);
      state.retries = 0;
      state.batchLimit = this.mapping.batchSize;
    } else if (decision.action === 'retry') {
      state.pending.splice(0, decision.processed);
      state.retries = decision.processed > 0 ? 1 : decision.retries;
      state.batchLimit = decision.batchLimit;
      this.retried += 1;
    } else {
      const failed = state.pending.slice(decision.processed, decision.processed + decision.discarded);
      await this.sendToOnFailure(state.shardId, failed, decision.condition, outcome.ok ? undefined : outcome.error.errorType);
      state.pending.splice(0, decision.processed + decision.discarded);
      state.retries = 0;
      state.batchLimit = this.mapping.batchSize;
      this.discarded += failed.length;
    }
    return true;
  }

  /** The invocation record Lambda sends for a stream batch it gives up on: where the records are, not the records. */
  private async sendToOnFailure(shardId: string, records: StreamRecord[], condition: string, functionError: string | undefined): Promise<void> {
    const first = records[0]?.dynamodb;
    const last = records[records.length - 1]?.dynamodb;
    const body = {
      requestContext: { requestId: crypto.randomUUID(), functionArn: this.mapping.functionArn, condition, approximateInvokeCount: 1 },
      responseContext: { statusCode: 200, executedVersion: '$LATEST', ...(functionError ? { functionError: 'Unhandled' } : {}) },
      version: '1.0',
      timestamp: new Date().toISOString(),
      DDBStreamBatchInfo: {
        shardId,
        startSequenceNumber: first?.SequenceNumber,
        endSequenceNumber: last?.SequenceNumber,
        approximateArrivalOfFirstRecord: first?.ApproximateCreationDateTime?.toISOString(),
        approximateArrivalOfLastRecord: last?.ApproximateCreationDateTime?.toISOString(),
        batchSize: records.length,
        streamArn: this.mapping.streamArn,
      },
    };
    if (!this.mapping.onFailureQueueUrl) return;
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.mapping.onFailureQueueUrl, MessageBody: JSON.stringify(body) }));
  }
}
