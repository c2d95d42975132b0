import { CustomObjectsApi, type KubernetesListObject, type KubernetesObject, KubeConfig, makeInformer, type Informer, type ObjectCache } from '@kubernetes/client-node';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ControlPlane, startControlPlane } from '../../../local/control-plane.js';
import { conditionsOf, findCondition } from '../../../shared/contracts/conditions.js';
import { isRecord } from '../../../shared/contracts/json.js';
import { eventually } from '../../support/eventually.js';
import { CORE_V1BETA2, lifecycleCluster } from '../../support/lifecycle-manifests.js';
import { RestClient } from '../../support/rest-client.js';
import { kubeconfigText } from '../../support/api-server.js';

/**
 * A `@kubernetes/client-node` informer on Clusters against `capless up` (the embedded control
 * plane, its default file store on disk): it sees every change of a cluster's lifecycle in the order the
 * store made them, and it carries on across a restart of the control plane.
 */
const NS = 'informed';
const CLUSTER = 'watched';
const PATH = `/apis/cluster.x-k8s.io/v1beta2/namespaces/${NS}/clusters`;

type ClusterObject = KubernetesObject & { status?: Record<string, unknown> };

let dataDir: string;
let plane: ControlPlane;
let port = 0;
let informer: Informer<ClusterObject> & ObjectCache<ClusterObject>;
/** `verb resourceVersion` of each informer callback, in order. */
const seen: string[] = [];
/** `verb resourceVersion` of each Cluster change the store reported (read-only tap), in order. */
const stored: string[] = [];
const errors: unknown[] = [];
let stopped = false;

async function startPlane(): Promise<void> {
  plane = await startControlPlane({ dataDir, port, concurrency: 4 });
  port = Number(new URL(plane.url).port);
  plane.store.onChange((change) => {
    const object = change.newObject ?? change.oldObject;
    if (object?.kind !== 'Cluster' || object.metadata.namespace !== NS) return;
    const verb = change.type === 'INSERT' ? 'add' : change.type === 'MODIFY' ? 'update' : 'delete';
    if (verb !== 'delete') stored.push(`${verb} ${object.metadata.resourceVersion}`);
  });
}

function isClusterObject(value: unknown): value is ClusterObject {
  return isRecord(value) && isRecord(value.metadata) && typeof value.metadata.name === 'string';
}

function available(object: ClusterObject | undefined): boolean {
  return findCondition(conditionsOf(object?.status), 'Available')?.status === 'True';
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'capless-informer-'));
  await startPlane();
  const config = new KubeConfig();
  config.loadFromString(kubeconfigText(plane.url, plane.token));
  const custom = config.makeApiClient(CustomObjectsApi);
  const list = async (): Promise<KubernetesListObject<ClusterObject>> => {
    const body: unknown = await custom.listNamespacedCustomObject({ group: 'cluster.x-k8s.io', version: 'v1beta2', namespace: NS, plural: 'clusters' });
    if (!isRecord(body) || !Array.isArray(body.items) || !isRecord(body.metadata)) throw new Error('not a list');
    const resourceVersion = typeof body.metadata.resourceVersion === 'string' ? body.metadata.resourceVersion : '';
    return { metadata: { resourceVersion }, items: body.items.filter(isClusterObject) };
  };
  informer = makeInformer(config, PATH, list);
  for (const verb of ['add', 'update', 'delete'] as const) {
    informer.on(verb, (object) => seen.push(`${verb} ${object.metadata?.resourceVersion ?? ''}`));
  }
  // What an informer's owner does on an error (the server went away): start again a moment later.
  informer.on('error', (error) => {
    errors.push(error);
    if (!stopped) setTimeout(() => void informer.start(), 200);
  });
  await informer.start();
});

afterAll(async () => {
  stopped = true;
  await informer?.stop();
  await plane?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('@kubernetes/client-node informer on the capless watch', () => {
  it("sees every change of a cluster's lifecycle, in the store's order", async () => {
    const api = new RestClient(plane.url, plane.token);
    for (const object of lifecycleCluster(CLUSTER, { namespace: NS, controlPlaneReplicas: 1, workerReplicas: 1 })) await api.mustCreate(object);
    await eventually('the informer to see the Cluster Available', async (report) => {
      const cached = informer.get(CLUSTER, NS);
      report(cached?.status);
      return available(cached) ? true : undefined;
    });
    await eventually('the informer to catch up with the store', async (report) => {
      report({ seen: seen.length, stored: stored.length });
      return seen.length >= stored.length ? true : undefined;
    });
    expect(seen).toEqual(stored);
    expect(seen[0]).toMatch(/^add /);
    expect(seen.length).toBeGreaterThan(2);
  });

  it('carries on across a restart of the control plane and sees the changes made after it', async () => {
    await plane.stop();
    await startPlane();
    const api = new RestClient(plane.url, plane.token);
    await api.mergePatch(CORE_V1BETA2, 'Cluster', NS, CLUSTER, { metadata: { labels: { restarted: 'yes' } } });
    await eventually('the informer to see the label set after the restart', async (report) => {
      const cached = informer.get(CLUSTER, NS);
      report({ labels: cached?.metadata?.labels, errors: errors.length });
      return cached?.metadata?.labels?.restarted === 'yes' ? true : undefined;
    });
    const current = await api.get(CORE_V1BETA2, 'Cluster', NS, CLUSTER);
    await eventually('the informer to hold the stored version', async () =>
      informer.get(CLUSTER, NS)?.metadata?.resourceVersion === current?.metadata.resourceVersion ? true : undefined,
    );
    expect(errors.length, 'the informer noticed the restart').toBeGreaterThan(0);
  });
});
