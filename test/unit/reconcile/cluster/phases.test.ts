import { describe, expect, it } from 'vitest';
import { type KubeObject, LABEL_CLUSTER_NAME } from '../../../../shared/contracts/object.js';
import type { ObjectChange } from '../../../../shared/ports/object-store.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { clusterReconciler } from '../../../../functions/reconcile/core/cluster/reconciler.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { PROVIDER_LOOKUP_PORT } from '../../../../shared/contracts/providers/provider-lookup.js';
import {
  reconcileControlPlanePhase,
  reconcileInfrastructurePhase,
} from '../../../../functions/reconcile/core/cluster/phases.js';
import { createClusterScope } from '../../../../functions/reconcile/core/cluster/scope.js';
import { ProviderRegistry } from '../../../../functions/reconcile/engine/providers/provider-registry.js';
import { inMemoryClusterReconciler } from '../../../../functions/reconcile/infrastructure/inmemory/cluster/reconciler.js';
import { DOCKER_PROVIDER, IN_MEMORY_PROVIDER } from '../../../../shared/contracts/providers/builtin-providers.js';
import { testContext } from '../../../support/reconcile-context.js';

const INFRA = 'infrastructure.cluster.x-k8s.io';
const CP = 'controlplane.cluster.x-k8s.io';

/** The in-memory and Docker providers plus an external one on the v1beta1 contract, as CAPA is. */
const lookup = new ProviderRegistry()
  .registerProvider({ ...IN_MEMORY_PROVIDER, reconcilers: [inMemoryClusterReconciler] })
  .registerProvider({ ...DOCKER_PROVIDER, reconcilers: [] })
  .registerProvider({
  name: 'legacy',
  type: 'InfrastructureProvider',
  kinds: [{ group: INFRA, kind: 'LegacyCluster', plural: 'legacyclusters', versions: ['v1beta1'], namespaced: true, statusSubresource: true }],
  contracts: [{ group: INFRA, kind: 'LegacyCluster', role: 'InfrastructureCluster', contractVersion: 'v1beta1' }],
  reconcilers: [
    {
      kind: { group: INFRA, kind: 'LegacyCluster' },
      watches: [],
      createScope: (ctx, object) => ({ ctx, object, conditions: [] }),
      phases: [],
      deletePhases: [],
      computeStatus: () => ({ fields: {} }),
    },
  ],
});

function cluster(spec: Record<string, unknown>): KubeObject {
  return { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c1', namespace: 'default' }, spec };
}

const infraRef = (kind: string) => ({ infrastructureRef: { apiGroup: INFRA, kind, name: 'c1' } });

describe('Cluster reconcileInfrastructurePhase', () => {
  it.each<[
    string,
    Record<string, unknown>,
    KubeObject | undefined,
    Record<string, unknown> | undefined,
    { provisioned: boolean; reason: string; requeue?: number; endpoint?: unknown },
  ]>([
    ['no infrastructureRef', {}, undefined, undefined, { provisioned: true, reason: 'NoInfrastructureRef' }],
    ['InMemoryCluster missing', infraRef('InMemoryCluster'), undefined, undefined, { provisioned: false, reason: 'InfrastructureDoesNotExist', requeue: 30 }],
    [
      'DockerCluster: no provider',
      infraRef('DockerCluster'),
      { apiVersion: `${INFRA}/v1beta2`, kind: 'DockerCluster', metadata: { name: 'c1' }, spec: {} },
      undefined,
      { provisioned: false, reason: 'ProviderNotInstalled', requeue: 300 },
    ],
    [
      'InMemoryCluster provisioned: endpoint copied',
      infraRef('InMemoryCluster'),
      { apiVersion: `${INFRA}/v1beta2`, kind: 'InMemoryCluster', metadata: { name: 'c1' }, spec: { controlPlaneEndpoint: { host: 'h', port: 20001 } } },
      { initialization: { provisioned: true }, failureDomains: [{ name: 'fd-a', controlPlane: true }] },
      { provisioned: true, reason: 'Ready', endpoint: { host: 'h', port: 20001 } },
    ],
    [
      'v1beta1 provider reports status.ready',
      infraRef('LegacyCluster'),
      { apiVersion: `${INFRA}/v1beta1`, kind: 'LegacyCluster', metadata: { name: 'c1' }, spec: { controlPlaneEndpoint: { host: 'lb', port: 6443 } } },
      { ready: true, failureDomains: { 'fd-a': { controlPlane: true } } },
      { provisioned: true, reason: 'Ready', endpoint: { host: 'lb', port: 6443 } },
    ],
  ])('%s', async (_name, spec, infra, infraStatus, expected) => {
    const ctx = testContext({ providers: { [PROVIDER_LOOKUP_PORT]: lookup } });
    if (infra) {
      const created = await ctx.store.create(infra);
      if (infraStatus) await ctx.store.updateStatus({ ...created, status: infraStatus });
    }
    const s = createClusterScope(ctx, await ctx.store.create(cluster(spec)));
    const result = await reconcileInfrastructurePhase(s);
    expect(s.infrastructureProvisioned).toBe(expected.provisioned);
    expect(s.conditions.find((c) => c.type === 'InfrastructureReady')?.reason).toBe(expected.reason);
    expect(result.requeueAfterSeconds).toBe(expected.requeue);
    expect(s.desired.spec?.controlPlaneEndpoint).toEqual(expected.endpoint);
    if (expected.provisioned && infra) {
      expect(s.failureDomains).toEqual([{ name: 'fd-a', controlPlane: true }]);
      const owned = await ctx.store.listByOwner(s.object.metadata.uid);
      expect(owned.map((o) => o.kind)).toEqual([infra.kind]);
    }
  });

  it('keeps an endpoint the user set', async () => {
    const ctx = testContext();
    const infra = await ctx.store.create({ apiVersion: `${INFRA}/v1beta2`, kind: 'InMemoryCluster', metadata: { name: 'c1' }, spec: { controlPlaneEndpoint: { host: 'sim', port: 20001 } } });
    await ctx.store.updateStatus({ ...infra, status: { initialization: { provisioned: true } } });
    const s = createClusterScope(ctx, await ctx.store.create(cluster({ ...infraRef('InMemoryCluster'), controlPlaneEndpoint: { host: 'mine', port: 443 } })));
    await reconcileInfrastructurePhase(s);
    expect(s.desired.spec?.controlPlaneEndpoint).toEqual({ host: 'mine', port: 443 });
  });
});

describe('Cluster reconcile writes', () => {
  it('its label and the endpoint it copies go out with its status, in one change after the finalizer (ADR 0140)', async () => {
    const store = new MemoryObjectStore();
    const ctx = testContext({ store, providers: { [PROVIDER_LOOKUP_PORT]: lookup } });
    const infra = await store.create({ apiVersion: `${INFRA}/v1beta2`, kind: 'InMemoryCluster', metadata: { name: 'c1' }, spec: { controlPlaneEndpoint: { host: 'h', port: 20001 } } });
    await store.updateStatus({ ...infra, status: { initialization: { provisioned: true } } });
    await store.create(cluster(infraRef('InMemoryCluster')));
    const changes: ObjectChange[] = [];
    store.onChange((c) => {
      if (c.newObject?.kind === 'Cluster') changes.push(c);
    });

    await runReconcile(clusterReconciler, ctx, { group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: 'default', name: 'c1' });

    expect(changes.map((c) => c.newObject?.metadata.finalizers)).toEqual([['cluster.cluster.x-k8s.io'], ['cluster.cluster.x-k8s.io']]);
    const written = changes[1]?.newObject;
    expect(written?.metadata.labels).toEqual({ [LABEL_CLUSTER_NAME]: 'c1' });
    expect(written?.spec?.controlPlaneEndpoint).toEqual({ host: 'h', port: 20001 });
    expect(written?.status).toMatchObject({ initialization: { infrastructureProvisioned: true }, observedGeneration: 2 });
  });
});

describe('Cluster reconcileControlPlanePhase', () => {
  const cpRef = { controlPlaneRef: { apiGroup: CP, kind: 'KubeadmControlPlane', name: 'c1-cp' } };
  it.each<[string, Record<string, unknown> | undefined, { initialized: boolean; available: string; replicas?: number }]>([
    ['not initialized', {}, { initialized: false, available: 'False' }],
    [
      'initialized with an available replica',
      { initialization: { controlPlaneInitialized: true }, replicas: 1, availableReplicas: 1, readyReplicas: 1, upToDateReplicas: 1 },
      { initialized: true, available: 'True', replicas: 1 },
    ],
    [
      'its own Available condition wins',
      { initialization: { controlPlaneInitialized: true }, availableReplicas: 1, conditions: [{ type: 'Available', status: 'False', reason: 'EtcdUnhealthy', lastTransitionTime: 'x' }] },
      { initialized: true, available: 'False' },
    ],
  ])('%s', async (_name, cpStatus, expected) => {
    const ctx = testContext();
    const kcp = await ctx.store.create({ apiVersion: `${CP}/v1beta2`, kind: 'KubeadmControlPlane', metadata: { name: 'c1-cp' }, spec: { replicas: 1 } });
    if (cpStatus) await ctx.store.updateStatus({ ...kcp, status: cpStatus });
    const s = createClusterScope(ctx, await ctx.store.create(cluster(cpRef)));
    await reconcileControlPlanePhase(s);
    expect(s.controlPlaneInitialized).toBe(expected.initialized);
    expect(s.conditions.find((c) => c.type === 'ControlPlaneAvailable')?.status).toBe(expected.available);
    if (expected.replicas !== undefined) expect(s.controlPlane?.replicas).toBe(expected.replicas);
  });

  it('waits 30 s for a missing control plane', async () => {
    const ctx = testContext();
    const s = createClusterScope(ctx, await ctx.store.create(cluster(cpRef)));
    expect(await reconcileControlPlanePhase(s)).toEqual({ requeueAfterSeconds: 30 });
    expect(s.conditions.find((c) => c.type === 'ControlPlaneInitialized')?.reason).toBe('ControlPlaneDoesNotExist');
  });
});
