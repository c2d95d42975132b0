import { describe, expect, it } from 'vitest';
import { inMemoryClusterReconciler } from '../../../../functions/reconcile/infrastructure/inmemory/cluster/reconciler.js';
import {
  SIMULATED_PORT_MAX,
  SIMULATED_PORT_MIN,
  simulatedEndpoint,
} from '../../../../functions/reconcile/infrastructure/inmemory/cluster/simulation.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { CountingStore } from '../../../support/counting-store.js';
import { testContext } from '../../../support/reconcile-context.js';

describe('simulatedEndpoint', () => {
  it.each([
    ['default', 'c1'],
    ['default', 'c2'],
    ['team-a', 'c1'],
  ])('%s/%s is deterministic and in range', (namespace, name) => {
    const endpoint = simulatedEndpoint(namespace, name);
    expect(simulatedEndpoint(namespace, name)).toEqual(endpoint);
    expect(endpoint.host).toBe(`${name}.${namespace}.in-memory.capless.local`);
    expect(endpoint.port).toBeGreaterThanOrEqual(SIMULATED_PORT_MIN);
    expect(endpoint.port).toBeLessThanOrEqual(SIMULATED_PORT_MAX);
  });
});

describe('inMemoryClusterReconciler', () => {
  const key = { group: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryCluster', namespace: 'default', name: 'c1' };

  it.each<[string, Record<string, unknown>, unknown]>([
    ['fills an empty endpoint', {}, simulatedEndpoint('default', 'c1')],
    ['keeps a given endpoint', { controlPlaneEndpoint: { host: 'x', port: 6443 } }, { host: 'x', port: 6443 }],
  ])('%s, provisions at once with failure domains, and is idempotent', async (_name, spec, endpoint) => {
    const ctx = testContext();
    const counting = new CountingStore(ctx.store);
    await ctx.store.create({ apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2', kind: 'InMemoryCluster', metadata: { name: 'c1' }, spec });
    await runReconcile(inMemoryClusterReconciler, { ...ctx, store: counting }, key);
    const obj = await ctx.store.get(key);
    expect(obj?.spec?.controlPlaneEndpoint).toEqual(endpoint);
    expect(obj?.status).toMatchObject({
      initialization: { provisioned: true },
      failureDomains: [
        { name: 'fd-a', controlPlane: true },
        { name: 'fd-b', controlPlane: true },
        { name: 'fd-c', controlPlane: true },
      ],
    });
    const writes = counting.counts.writes;
    await runReconcile(inMemoryClusterReconciler, { ...ctx, store: counting }, key);
    expect(counting.counts.writes).toBe(writes);
  });
});
