import type { DynamoDBRecord } from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import { ReconcilerRegistry } from '../../../../functions/reconcile/engine/registry.js';
import { processStreamBatch } from '../../../../functions/reconcile/router/process-stream-batch.js';
import { objectToItem } from '../../../../shared/adapters/aws/dynamodb/item-codec.js';
import { toLambdaImage } from '../../../../shared/adapters/aws/dynamodb-streams/lambda-image.js';
import { objectChangeFromStreamRecord } from '../../../../shared/adapters/aws/dynamodb/stream-record.js';
import { keyString, type StoredObject } from '../../../../shared/contracts/object.js';
import type { EnqueueOptions, ReconcileRequest, WorkQueue } from '../../../../shared/ports/work-queue.js';
import type { WatchLog } from '../../../../shared/ports/watch-log.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import type { WatchLogRecord } from '../../../../shared/watch/watch-log-record.js';
import { Probe, widget } from '../../../support/probe-reconciler.js';

/** Records what the router enqueues; fails on a chosen object name. */
class RecordingQueue implements WorkQueue {
  readonly requests: string[] = [];
  failOn: string | undefined;
  async enqueue(request: ReconcileRequest, _options?: EnqueueOptions): Promise<void> {
    if (request.name === this.failOn) throw new Error('queue unavailable');
    this.requests.push(keyString(request));
  }
  async enqueueMany(requests: readonly ReconcileRequest[]): Promise<void> {
    for (const request of requests) await this.enqueue(request);
  }
}

const registry = new ReconcilerRegistry([new Probe().reconciler()]);
let store: MemoryObjectStore;
let queue: RecordingQueue;
let a: StoredObject;
let b: StoredObject;

beforeEach(async () => {
  store = new MemoryObjectStore();
  queue = new RecordingQueue();
  a = await store.create(widget('a'));
  b = await store.create(widget('b'));
});

function insert(object: StoredObject, sequence: string): DynamoDBRecord {
  const image = toLambdaImage(objectToItem(object));
  const keys = { pk: image.pk ?? { S: '' }, sk: image.sk ?? { S: '' } };
  return { eventName: 'INSERT', dynamodb: { SequenceNumber: sequence, Keys: keys, NewImage: image } };
}

function workItem(sequence: string): DynamoDBRecord {
  const keys = { pk: { S: 'work#test.capless.io/Widget/default/a' }, sk: { S: 'work' } };
  return { eventName: 'INSERT', dynamodb: { SequenceNumber: sequence, Keys: keys, NewImage: { ...keys, queued: { BOOL: true } } } };
}

const deps = () => ({ registry, lookup: store, queue, decode: objectChangeFromStreamRecord });
const keyOfName = (name: string) => `test.capless.io/Widget/default/${name}`;

describe('Function: processStreamBatch', () => {
  it.each<[string, () => DynamoDBRecord[], string | undefined, string[], string[]]>([
    ['object records become requests, in order', () => [insert(a, '1'), insert(b, '2')], undefined, ['a', 'b'], []],
    ['work-queue items are not objects and are skipped', () => [workItem('1'), insert(b, '2')], undefined, ['b'], []],
    ['the first failing record is reported and the rest left for the retry', () => [insert(a, '1'), insert(b, '2'), insert(a, '3')], 'b', ['a'], ['2']],
    ['an empty batch succeeds', () => [], undefined, [], []],
  ])('%s', async (_title, records, failOn, enqueued, failures) => {
    queue.failOn = failOn;
    const response = await processStreamBatch({ Records: records() }, deps());
    expect(queue.requests).toEqual(enqueued.map(keyOfName));
    expect(response.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(failures);
  });
});

/** Keeps what the router records for watches; fails on a chosen object name. */
class RecordingWatchLog implements WatchLog {
  readonly records: WatchLogRecord[] = [];
  failOn: string | undefined;
  async append(records: readonly WatchLogRecord[]): Promise<void> {
    for (const record of records) {
      if (record.object.metadata.name === this.failOn) throw new Error('watch log unavailable');
      this.records.push(record);
    }
  }
  async since(): Promise<WatchLogRecord[]> {
    return [];
  }
}

describe('Function: processStreamBatch with a watch log (ADR 0080)', () => {
  it.each<[string, () => DynamoDBRecord[], string | undefined, string[], string[], string[]]>([
    ['each routed object change is recorded once, after it is routed', () => [insert(a, '1'), workItem('2'), insert(b, '3')], undefined, ['a', 'b'], ['ADDED a', 'ADDED b'], []],
    ['a change the queue refused is not recorded (its retry records it)', () => [insert(a, '1'), insert(b, '2')], 'queue:b', ['a'], ['ADDED a'], ['2']],
    ['a change the log refused is reported for the retry', () => [insert(a, '1'), insert(b, '2')], 'log:b', ['a', 'b'], ['ADDED a'], ['2']],
  ])('%s', async (_title, records, failOn, enqueued, recorded, failures) => {
    const watchLog = new RecordingWatchLog();
    queue.failOn = failOn?.startsWith('queue:') ? failOn.slice(6) : undefined;
    watchLog.failOn = failOn?.startsWith('log:') ? failOn.slice(4) : undefined;
    const response = await processStreamBatch({ Records: records() }, { ...deps(), watchLog });
    expect(queue.requests).toEqual(enqueued.map(keyOfName));
    expect(watchLog.records.map((r) => `${r.type} ${r.object.metadata.name}`)).toEqual(recorded);
    expect(response.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(failures);
  });
});
