import { request } from 'node:https';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CustomObjectsApi, type Informer, type KubernetesListObject, type KubernetesObject, KubeConfig, makeInformer, type ObjectCache } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { readKubeconfigCredentials } from '../../local/data-dir.js';
import { conditionsOf, findCondition } from '../../shared/contracts/conditions.js';
import { isRecord, stringAt } from '../../shared/contracts/json.js';
import { freePort } from '../aws-wire/setup/free-port.js';
import { exited, type RunningCapless, startCaplessUp } from '../support/capless-up-process.js';
import { eventually } from '../support/eventually.js';
import { CORE_V1BETA2, lifecycleCluster } from '../support/lifecycle-manifests.js';
import { RestClient, type SendRequest } from '../support/rest-client.js';

/**
 * A `@kubernetes/client-node` informer on Clusters against `capless up` run as a real process:
 * it sees every change of a cluster's lifecycle in order, and when the process is stopped and
 * started again on the same data directory it resumes from its last resourceVersion — no 410,
 * no second list, no event repeated or missed (ADR 0081).
 */
const NS = 'informed';
const CLUSTER = 'survivor';
const PATH = `/apis/cluster.x-k8s.io/v1beta2/namespaces/${NS}/clusters`;

type ClusterObject = KubernetesObject & { status?: Record<string, unknown> };

let dataDir: string | undefined;
let port: number;
let running: RunningCapless | undefined;
let ca: string;
let token: string;
let informer: (Informer<ClusterObject> & ObjectCache<ClusterObject>) | undefined;
let stopped = false;
/** `verb resourceVersion` of each informer callback, in order. */
const seen: string[] = [];
const errors: unknown[] = [];
const listedAt: string[] = [];

/** fetch-like HTTPS that trusts only the data directory's serving certificate. */
const send: SendRequest = (url, init) =>
  new Promise((resolveResponse, reject) => {
    const req = request(url, { method: init.method, headers: init.headers, ca }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolveResponse(new Response(Buffer.concat(chunks).toString('utf8'), { status: res.statusCode ?? 500 })));
    });
    req.on('error', reject);
    req.end(init.body);
  });

/** Every event a plain watch from `resourceVersion` replays, read until the server ends it. */
function replay(resourceVersion: string): Promise<Array<{ type: string; resourceVersion: string }>> {
  return new Promise((resolveEvents, reject) => {
    const url = `https://127.0.0.1:${port}${PATH}?watch=true&resourceVersion=${resourceVersion}&timeoutSeconds=2`;
    const req = request(url, { headers: { authorization: `Bearer ${token}` }, ca }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8');
      });
      res.on('end', () => {
        const events = text
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line): unknown => JSON.parse(line))
          .filter(isRecord)
          .map((event) => ({ type: String(event.type), resourceVersion: stringAt(event.object, 'metadata', 'resourceVersion') ?? '' }));
        if (res.statusCode !== 200) reject(new Error(`replay answered ${res.statusCode}: ${text}`));
        else resolveEvents(events);
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function startProcess(): Promise<void> {
  if (dataDir === undefined) throw new Error('no data directory: setUp() first');
  running = await startCaplessUp(dataDir, port);
  ca = await readFile(join(dataDir, 'serving.crt'), 'utf8');
  token = readKubeconfigCredentials(await readFile(join(dataDir, 'kubeconfig'), 'utf8')).token ?? '';
}

async function stopProcess(): Promise<void> {
  if (!running) return;
  running.child.kill('SIGTERM');
  expect(await exited(running.child)).toBe(0);
  running = undefined;
}

function isClusterObject(value: unknown): value is ClusterObject {
  return isRecord(value) && isRecord(value.metadata) && typeof value.metadata.name === 'string';
}

/**
 * A fresh process, data directory and informer, with empty records: each attempt of the test
 * (vitest retries it once in CI) starts from nothing, so a retry creates the Cluster anew instead
 * of finding the last attempt's.
 */
async function setUp(): Promise<void> {
  await tearDown();
  seen.length = 0;
  errors.length = 0;
  listedAt.length = 0;
  stopped = false;
  const dir = await mkdtemp(join(tmpdir(), 'capless-informer-restart-'));
  dataDir = dir;
  port = await freePort();
  await startProcess();
  const config = new KubeConfig();
  config.loadFromFile(join(dir, 'kubeconfig'));
  const custom = config.makeApiClient(CustomObjectsApi);
  const list = async (): Promise<KubernetesListObject<ClusterObject>> => {
    const body: unknown = await custom.listNamespacedCustomObject({ group: 'cluster.x-k8s.io', version: 'v1beta2', namespace: NS, plural: 'clusters' });
    if (!isRecord(body) || !Array.isArray(body.items) || !isRecord(body.metadata)) throw new Error('not a list');
    const resourceVersion = typeof body.metadata.resourceVersion === 'string' ? body.metadata.resourceVersion : '';
    listedAt.push(resourceVersion);
    return { metadata: { resourceVersion }, items: body.items.filter(isClusterObject) };
  };
  const started = makeInformer(config, PATH, list);
  informer = started;
  for (const verb of ['add', 'update', 'delete'] as const) {
    started.on(verb, (object) => seen.push(`${verb} ${object.metadata?.resourceVersion ?? ''}`));
  }
  // What an informer's owner does on an error (the server went away): start again a moment later.
  // start() keeps the informer's resourceVersion: it watches from there and lists only after a 410.
  started.on('error', (error) => {
    errors.push(error);
    if (!stopped && informer === started) setTimeout(() => void started.start(), 200);
  });
  await started.start();
}

async function tearDown(): Promise<void> {
  stopped = true;
  await informer?.stop();
  informer = undefined;
  running?.child.kill('SIGKILL');
  running = undefined;
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  dataDir = undefined;
}

afterAll(tearDown);

/** What the informer's callbacks should have been for a run of watch events on one object. */
function expectedCallbacks(events: Array<{ type: string; resourceVersion: string }>): string[] {
  return events.filter((e) => e.type !== 'BOOKMARK').map((e, i) => `${e.type === 'DELETED' ? 'delete' : i === 0 ? 'add' : 'update'} ${e.resourceVersion}`);
}

describe('a client-node informer across a restart of capless up (a real process)', () => {
  it("sees every change of a cluster's lifecycle in order, then resumes after a restart without a re-list", async () => {
    await setUp();
    const api = new RestClient(`https://127.0.0.1:${port}`, token, send);
    for (const object of lifecycleCluster(CLUSTER, { namespace: NS, controlPlaneReplicas: 1, workerReplicas: 1 })) await api.mustCreate(object);
    await eventually('the informer to see the Cluster Available', async (report) => {
      const cached = informer?.get(CLUSTER, NS);
      report(cached?.status);
      return findCondition(conditionsOf(cached?.status), 'Available')?.status === 'True' ? true : undefined;
    });
    const beforeRestart = seen.length;

    await stopProcess();
    await startProcess();
    const restarted = new RestClient(`https://127.0.0.1:${port}`, token, send);
    const patched = await restarted.mergePatch(CORE_V1BETA2, 'Cluster', NS, CLUSTER, { metadata: { labels: { restarted: 'yes' } } });
    await eventually('the informer to hold the version patched after the restart', async (report) => {
      const cached = informer?.get(CLUSTER, NS);
      report({ version: cached?.metadata?.resourceVersion, errors: errors.length });
      return cached?.metadata?.resourceVersion === patched.metadata.resourceVersion ? true : undefined;
    });

    // The history the restarted process serves from the informer's first list on: the informer saw exactly that.
    const history = await replay(listedAt[0] ?? '');
    expect(seen).toEqual(expectedCallbacks(history));
    expect(seen.length).toBeGreaterThan(beforeRestart);
    const versions = seen.map((entry) => BigInt(entry.split(' ')[1] ?? '0'));
    expect(versions.every((version, i) => i === 0 || version > (versions[i - 1] ?? 0n)), 'no event repeated or out of order').toBe(true);
    expect(listedAt, 'listed once, never again after the restart').toHaveLength(1);
    expect(errors.length, 'the informer noticed the restart').toBeGreaterThan(0);
    // 410 as a number of its own: the errors name the port, which may start with 410.
    expect(errors.map(String).join('\n')).not.toMatch(/\b410\b|Gone|Expired/);
  });
});
