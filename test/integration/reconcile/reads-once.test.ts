/**
 * Issue 16's rule through the embedded control plane's API: a reconcile reads each object at most
 * once. A cluster of 1 control-plane and 3 worker Machines on the in-memory infrastructure is
 * created, readied and deleted; every store `get` is attributed to the reconcile it ran in, and
 * no reconcile may get the same object twice. The ports a reconcile hands the store to (the
 * workload cluster reading the simulated Node from its InMemoryMachine) read through the
 * reconcile's own read cache too.
 */

import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BENCH_OPTIONS } from '../../../bench/args.js';
import { FleetTracker } from '../../../bench/fleet-tracker.js';
import { benchCluster, clusterObjects } from '../../../bench/workload.js';
import { type ControlPlane, startControlPlane } from '../../../local/control-plane.js';
import type { ObjectKey, StoredObject } from '../../../shared/contracts/object.js';
import type { ChangeSource, ObjectStore } from '../../../shared/ports/object-store.js';
import type { RequestHandler } from '../../../shared/work/request-outcome.js';
import { eventually } from '../../support/eventually.js';
import { RestClient } from '../../support/rest-client.js';

interface ReconcileReads {
  request: string;
  gets: Map<string, number>;
}

const reconciles = new AsyncLocalStorage<ReconcileReads>();
const finished: ReconcileReads[] = [];

/** The store as the control plane sees it, with each `get` counted for the reconcile it ran in. */
function attributingGets(store: ObjectStore & ChangeSource): ObjectStore & ChangeSource {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property !== 'get' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return (key: ObjectKey): Promise<StoredObject | undefined> => {
        const reads = reconciles.getStore();
        const id = `${key.kind} ${key.namespace}/${key.name}`;
        if (reads) reads.gets.set(id, (reads.gets.get(id) ?? 0) + 1);
        return target.get(key);
      };
    },
  });
}

let dataDir: string;
let plane: ControlPlane;
let tracker: FleetTracker;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'capless-reads-once-'));
  let observed: (ObjectStore & ChangeSource) | undefined;
  plane = await startControlPlane({
    dataDir,
    port: 0,
    persist: false,
    wrapStore: (store) => {
      observed = attributingGets(store);
      return observed;
    },
    wrapHandler: (handler: RequestHandler): RequestHandler => (request, failures) => {
      const reads: ReconcileReads = { request: `${request.kind} ${request.namespace}/${request.name}`, gets: new Map() };
      return reconciles.run(reads, async () => {
        try {
          return await handler(request, failures);
        } finally {
          finished.push(reads);
        }
      });
    },
  });
  if (!observed) throw new Error('the control plane did not take the wrapped store');
  tracker = new FleetTracker(observed, 'bench-reads-', DEFAULT_BENCH_OPTIONS.controlPlaneReplicas + DEFAULT_BENCH_OPTIONS.workerReplicas);
});

afterAll(async () => {
  tracker?.stop();
  await plane?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('a reconcile reads each object at most once', () => {
  it('over a cluster lifecycle (1 control-plane and 3 worker Machines, in-memory infrastructure)', async () => {
    const rest = new RestClient(plane.url, plane.token);
    const cluster = benchCluster('reads', 0);
    const objects = clusterObjects(cluster.namespace, cluster.name, { ...DEFAULT_BENCH_OPTIONS, provisionSeconds: 0 });
    for (const object of objects) await rest.mustCreate(object);
    await eventually('the cluster is ready', async () => (tracker.readyClusters() === 1 ? true : undefined), { timeoutMs: 60_000 });
    for (const object of objects) {
      const apiVersion = object.apiVersion;
      await rest.delete(apiVersion, object.kind, object.metadata.namespace ?? 'default', object.metadata.name);
    }
    await eventually('every object is gone', async () => (tracker.liveObjects() === 0 ? true : undefined), { timeoutMs: 60_000 });
    await plane.queue.idle();

    const machineReconciles = finished.filter((r) => r.request.startsWith('Machine '));
    expect(machineReconciles.length).toBeGreaterThan(0);
    // The Machine's node phase asks the workload cluster, which reads the InMemoryMachine the infrastructure phase read.
    expect(machineReconciles.some((r) => [...r.gets.keys()].some((id) => id.startsWith('InMemoryMachine ')))).toBe(true);
    const repeated = finished.flatMap((r) => [...r.gets].filter(([, count]) => count > 1).map(([id, count]) => `${r.request}: ${id} × ${count}`));
    expect(repeated).toEqual([]);
  });
});
