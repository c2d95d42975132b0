import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Principal } from '../../../functions/api/auth.js';
import type { ApiResponse } from '../../../functions/api/http.js';
import { pathAdmission } from '../../../functions/api/path-admission.js';
import { serveWatch, type WatchFunctionDeps } from '../../../functions/watch/serve-watch.js';
import { writeResponse } from '../../../functions/watch/write-response.js';
import { createObjectTable } from '../../../shared/adapters/aws/dynamodb/create-object-table.js';
import { DynamoObjectStore } from '../../../shared/adapters/aws/dynamodb/dynamo-object-store.js';
import { createWatchLogTable, DynamoWatchLog } from '../../../shared/adapters/aws/dynamodb/watch-log-table.js';
import { isRecord, stringAt } from '../../../shared/contracts/json.js';
import { KindRegistry } from '../../../shared/contracts/kinds.js';
import type { KubeObject, ObjectKey } from '../../../shared/contracts/object.js';
import { builtinProviderLookup } from '../../../shared/contracts/providers/builtin-lookup.js';
import { UnauthorizedError } from '../../../shared/errors/index.js';
import { systemClock } from '../../../shared/ports/clock.js';
import { silentLogger } from '../../../shared/ports/logger.js';
import type { WatchLog } from '../../../shared/ports/watch-log.js';
import { watchLogRecordFor } from '../../../shared/watch/watch-log-record.js';
import { eventually } from '../../support/eventually.js';

/**
 * The AWS watch function's request path (ADR 0080) against DynamoDB on dynalite: the object
 * table, the watch log table the stream router writes (here fed from the store's change tap, as
 * the router is fed from the stream), and the response written to a Node stream as Lambda's
 * response stream takes it.
 */
const server = dynalite({ createTableMs: 0, deleteTableMs: 0 });
let client: DynamoDBClient;
let tables = 0;
let store: DynamoObjectStore;
let deps: WatchFunctionDeps;
/** Watch log writes in flight, and how often the watch log has been read. */
let writes: Promise<void>[] = [];
let reads = 0;
const admin: Principal = { name: 'arn:aws:iam::123456789012:user/admin', canReadSecrets: true, canWriteSecrets: true };

const CM = '/api/v1/namespaces/ns1/configmaps';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new DynamoDBClient({ endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
});

afterAll(async () => {
  client.destroy();
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
});

beforeEach(async () => {
  const n = ++tables;
  await createObjectTable(client, `objects-${n}`);
  await createWatchLogTable(client, `watch-log-${n}`);
  store = new DynamoObjectStore({ client, tableName: `objects-${n}`, tapChanges: true });
  const table = new DynamoWatchLog({ client, tableName: `watch-log-${n}` });
  writes = [];
  reads = 0;
  const watchLog: WatchLog = {
    append: (records) => table.append(records),
    since: (kind, after, limit) => {
      reads++;
      return table.since(kind, after, limit);
    },
  };
  // What the stream router does for every change it routes.
  store.onChange((change) => {
    const record = watchLogRecordFor(change, new Date());
    if (record) writes.push(watchLog.append([record]));
  });
  const kinds = new KindRegistry();
  deps = {
    store,
    kinds,
    admission: pathAdmission(kinds, builtinProviderLookup),
    authenticate: () => admin,
    logger: silentLogger,
    watchLog,
    clock: systemClock,
    pollIntervalMs: 20,
    heartbeatMs: 60_000,
    retentionSeconds: 3600,
    limits: { maxTimeoutSeconds: 840, bookmarkIntervalMs: 60_000 },
  };
});

function configMap(name: string, labels: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns1', labels }, data: { k: name } };
}

function cmKey(name: string): ObjectKey {
  return { group: '', kind: 'ConfigMap', namespace: 'ns1', name };
}

function request(path: string, query: string) {
  return { method: 'GET', path, query: new URLSearchParams(query), headers: {}, body: '' };
}

interface Streamed {
  response: ApiResponse;
  /** `TYPE name` of every non-bookmark event, once the watch has ended. */
  events: Promise<Array<{ type: string; name: string; resourceVersion: string }>>;
}

/** Serves a watch and writes it to a Node stream as the Lambda response stream would take it. */
async function watch(query: string, path = CM): Promise<Streamed> {
  const response = await serveWatch(request(path, query), deps);
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const events = writeResponse(response, out).then(() =>
    text
      .split('\n')
      .filter((line) => line !== '')
      .map((line): unknown => JSON.parse(line))
      .filter(isRecord)
      .filter((event) => event.type !== 'BOOKMARK')
      .map((event) => ({
        type: String(event.type),
        name: stringAt(event.object, 'metadata', 'name') ?? '?',
        resourceVersion: stringAt(event.object, 'metadata', 'resourceVersion') ?? '',
      })),
  );
  return { response, events };
}

/** The tap's watch log writes are not awaited by the store: let them land before reading the log. */
async function settle(): Promise<void> {
  await Promise.all(writes);
}

describe('the AWS watch function on DynamoDB (dynalite)', () => {
  it('streams every change after a resourceVersion in order, then the changes made while it is open, until timeoutSeconds', async () => {
    const before = await store.create(configMap('before'));
    await store.create(configMap('a'));
    await store.create(configMap('b'));
    const a = await store.get(cmKey('a'));
    if (!a) throw new Error('a is missing');
    await store.update({ ...a, data: { k: 'changed' } });
    await store.delete(cmKey('b'));
    await settle();
    const streamed = await watch(`watch=true&resourceVersion=${before.metadata.resourceVersion}&timeoutSeconds=1`);
    expect(streamed.response.status).toBe(200);
    await store.create(configMap('live'));
    const events = await streamed.events;
    expect(events.map((e) => `${e.type} ${e.name}`)).toEqual(['ADDED a', 'ADDED b', 'MODIFIED a', 'DELETED b', 'ADDED live']);
    expect(new Set(events.map((e) => e.resourceVersion)).size).toBe(events.length);
  });

  it("resumes from any event's resourceVersion with exactly the changes after it", async () => {
    const start = await store.create(configMap('start'));
    for (const name of ['a', 'b', 'c']) await store.create(configMap(name));
    await store.delete(cmKey('a'));
    await settle();
    const all = await (await watch(`watch=true&resourceVersion=${start.metadata.resourceVersion}&timeoutSeconds=1`)).events;
    expect(all.map((e) => `${e.type} ${e.name}`)).toEqual(['ADDED a', 'ADDED b', 'ADDED c', 'DELETED a']);
    for (let i = 0; i < all.length; i++) {
      const resumed = await (await watch(`watch=true&resourceVersion=${all[i]?.resourceVersion}&timeoutSeconds=1`)).events;
      expect(resumed.map((e) => `${e.type} ${e.name}`), `after event ${i}`).toEqual(all.slice(i + 1).map((e) => `${e.type} ${e.name}`));
    }
  });

  it('without a resourceVersion sends the current state as ADDED, then changes', async () => {
    await store.create(configMap('x'));
    const streamed = await watch('watch=true&timeoutSeconds=1');
    await store.create(configMap('y'));
    expect((await streamed.events).map((e) => `${e.type} ${e.name}`)).toEqual(['ADDED x', 'ADDED y']);
  });

  it('follows a label selector across changes with the labels the log kept from before each modification', async () => {
    const start = await store.create(configMap('other'));
    await store.create(configMap('l', { tier: 'a' }));
    for (const tier of ['b', 'b', 'c']) {
      const current = await store.get(cmKey('l'));
      if (!current) throw new Error('l is missing');
      await store.update({ ...current, data: { k: tier + String(Math.random()) }, metadata: { ...current.metadata, labels: { tier } } });
    }
    await settle();
    const events = await (await watch(`watch=true&resourceVersion=${start.metadata.resourceVersion}&labelSelector=tier%3Db&timeoutSeconds=1`)).events;
    expect(events.map((e) => `${e.type} ${e.name}`)).toEqual(['ADDED l', 'MODIFIED l', 'DELETED l']);
  });

  it.each([
    ['a position older than the watch log keeps', 410, 'Expired', CM, 'watch=true&resourceVersion=1'],
    ['a request that is not a watch', 405, 'MethodNotAllowed', CM, ''],
    ['a path that does not exist', 404, 'NotFound', '/apis/cluster.x-k8s.io/v1beta2/namespaces/ns1/nonsense', 'watch=true'],
    ['a resourceVersion that is not one', 400, 'BadRequest', CM, 'watch=true&resourceVersion=abc'],
  ])('answers %s with a %i Status and no stream', async (_case, code, reason, path, query) => {
    const response = await serveWatch(request(path, query), deps);
    expect(response.status).toBe(code);
    expect(JSON.parse(response.body)).toMatchObject({ kind: 'Status', code, reason });
    expect(response.stream).toBeUndefined();
  });

  it('answers a caller the authorizer did not name with 401', async () => {
    const response = await serveWatch(request(CM, 'watch=true'), {
      ...deps,
      authenticate: () => {
        throw new UnauthorizedError('Unauthorized: no authorizer identity on the request');
      },
    });
    expect(response.status).toBe(401);
    expect(response.stream).toBeUndefined();
  });

  it('writes a blank line while a watch is quiet (CloudFront would end a silent response), which watch clients skip', async () => {
    const response = await serveWatch(request(CM, 'watch=true&timeoutSeconds=1'), { ...deps, heartbeatMs: 20 });
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    await writeResponse(response, out);
    expect(text).toMatch(/^\n+$/);
  });

  it('stops reading the watch log once the client goes away', async () => {
    const response = await serveWatch(request(CM, 'watch=true&timeoutSeconds=60'), deps);
    const out = new PassThrough();
    const written = writeResponse(response, out);
    await eventually('the watch to read the log while open', async () => (reads > 1 ? true : undefined), { timeoutMs: 10_000, intervalMs: 10 });
    out.destroy();
    await written;
    const readsAtClose = reads;
    await store.create(configMap('after-close'));
    await settle();
    await new Promise((resolve) => setTimeout(resolve, 5 * deps.pollIntervalMs));
    expect(reads).toBe(readsAtClose);
  });
});
