import {
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  ListStreamsCommand,
  type _Record,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { toLambdaImage } from './lambda-image.js';

export interface StreamPollerOptions {
  client: DynamoDBStreamsClient;
  tableName: string;
  /** Where a shard is first read. Default TRIM_HORIZON (everything still in the stream). */
  startAt?: 'TRIM_HORIZON' | 'LATEST';
}

/**
 * Reads a table's DynamoDB stream the way Lambda's event source does, as batches shaped like
 * DynamoDBStreamEvent: ListStreams → DescribeStream → GetShardIterator → GetRecords. For the
 * stream-path test and for running the router against DynamoDB Local; shard lineage is kept
 * simple (every shard is read from its own iterator, parents first as DescribeStream lists them).
 */
export class StreamPoller {
  private streamArn: string | undefined;
  private readonly iterators = new Map<string, string | undefined>();

  constructor(private readonly options: StreamPollerOptions) {}

  /** The records that arrived since the last call (possibly none). */
  async poll(): Promise<DynamoDBStreamEvent> {
    const streamArn = await this.stream();
    await this.discoverShards(streamArn);
    const records: DynamoDBRecord[] = [];
    for (const [shardId, iterator] of this.iterators) {
      if (!iterator) continue;
      const page = await this.options.client.send(new GetRecordsCommand({ ShardIterator: iterator }));
      this.iterators.set(shardId, page.NextShardIterator);
      records.push(...(page.Records ?? []).map(toLambdaRecord));
    }
    return { Records: records };
  }

  private async stream(): Promise<string> {
    if (this.streamArn) return this.streamArn;
    const listed = await this.options.client.send(new ListStreamsCommand({ TableName: this.options.tableName }));
    const arn = listed.Streams?.[0]?.StreamArn;
    if (!arn) throw new Error(`table ${this.options.tableName} has no stream (create it with a StreamSpecification)`);
    this.streamArn = arn;
    return arn;
  }

  private async discoverShards(streamArn: string): Promise<void> {
    const described = await this.options.client.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const shard of described.StreamDescription?.Shards ?? []) {
      if (!shard.ShardId || this.iterators.has(shard.ShardId)) continue;
      const iterator = await this.options.client.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shard.ShardId,
          ShardIteratorType: this.options.startAt ?? 'TRIM_HORIZON',
        }),
      );
      this.iterators.set(shard.ShardId, iterator.ShardIterator);
    }
  }
}

function toLambdaRecord(record: _Record): DynamoDBRecord {
  const data = record.dynamodb;
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventSource: record.eventSource ?? 'aws:dynamodb',
    eventVersion: record.eventVersion,
    awsRegion: record.awsRegion,
    dynamodb: {
      ...(data?.Keys ? { Keys: toLambdaImage(data.Keys) } : {}),
      ...(data?.NewImage ? { NewImage: toLambdaImage(data.NewImage) } : {}),
      ...(data?.OldImage ? { OldImage: toLambdaImage(data.OldImage) } : {}),
      ...(data?.SequenceNumber ? { SequenceNumber: data.SequenceNumber } : {}),
      ...(data?.SizeBytes !== undefined ? { SizeBytes: data.SizeBytes } : {}),
      ...(data?.StreamViewType ? { StreamViewType: data.StreamViewType } : {}),
    },
  };
}
