import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { ReconcilerRegistry } from '../../../../functions/reconcile/engine/registry.js';
import { routeChange } from '../../../../functions/reconcile/router/route-change.js';
import { keyString, type StoredObject } from '../../../../shared/contracts/object.js';
import { lookupWithClusters } from '../../../support/router-lookup.js';

/**
 * A MachineSet held by the preflight checks (ADR 0163) hears of its control plane reporting a new
 * version, through the cluster-name label; nothing else the control plane writes wakes it.
 */
const CORE = 'cluster.x-k8s.io';
const T = '2026-01-01T00:00:00Z';
const registry = new ReconcilerRegistry(builtinProviderRegistry().reconcilers());
const setKey = keyString({ group: CORE, kind: 'MachineSet', namespace: 'ns', name: 'md-1' });

function controlPlane(status: Record<string, unknown>, labelled = true): StoredObject {
  return {
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmControlPlane',
    metadata: { name: 'cp', namespace: 'ns', uid: 'cp-uid', resourceVersion: '1', generation: 1, creationTimestamp: T, ...(labelled ? { labels: { [`${CORE}/cluster-name`]: 'c1' } } : {}) },
    spec: { version: 'v1.31.0', replicas: 3 },
    status,
  };
}

async function lookup() {
  const store = await lookupWithClusters('ns', 'c1');
  await store.create({ apiVersion: `${CORE}/v1beta2`, kind: 'MachineSet', metadata: { name: 'md-1', namespace: 'ns', labels: { [`${CORE}/cluster-name`]: 'c1' } }, spec: { clusterName: 'c1' } });
  return store;
}

describe('what of its control plane wakes a MachineSet', () => {
  it.for([
    ['its first version (provisioning is over)', {}, { version: 'v1.31.0' }, true, true],
    ['an upgrade finishing (the version moves on)', { version: 'v1.30.0' }, { version: 'v1.31.0' }, true, true],
    ['status.versions moving', { versions: [{ version: 'v1.30.0', replicas: 3 }] }, { versions: [{ version: 'v1.31.0', replicas: 3 }] }, true, true],
    ['replica counters only', { version: 'v1.31.0', replicas: 2 }, { version: 'v1.31.0', replicas: 3 }, true, false],
    ['a control plane without the cluster-name label (found by the 15 s look again)', {}, { version: 'v1.31.0' }, false, false],
  ] as const)('%s', async ([, before, after, labelled, woken]) => {
    const change = { type: 'MODIFY' as const, oldObject: controlPlane(before, labelled), newObject: controlPlane(after, labelled) };
    const keys = (await routeChange(change, registry, await lookup())).map(keyString);
    expect(keys.includes(setKey)).toBe(woken);
  });
});
