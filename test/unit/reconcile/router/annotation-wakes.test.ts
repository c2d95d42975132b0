import { describe, expect, it } from 'vitest';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { ReconcilerRegistry } from '../../../../functions/reconcile/engine/registry.js';
import { routeChange } from '../../../../functions/reconcile/router/route-change.js';
import { keyString, type StoredObject } from '../../../../shared/contracts/object.js';
import type { ObjectChange } from '../../../../shared/ports/object-store.js';
import { lookupWithClusters } from '../../../support/router-lookup.js';

/**
 * Annotations a reconciler does not act on on its own object (`ignoresOwnAnnotations`, ADR 0161):
 * a MachineDeployment's revision, its own derived write, does not wake it again, while a change of
 * its annotations wakes the Machines of its cluster (the ones of an older MachineSet are now
 * outdated and taint their Nodes) and its status does not; the certificate expiry a control plane
 * records on a KubeadmConfig does not wake the config.
 */
const CORE = 'cluster.x-k8s.io';
const T = '2026-01-01T00:00:00Z';
const REVISION = 'machinedeployment.clusters.x-k8s.io/revision';
const registry = new ReconcilerRegistry(builtinProviderRegistry().reconcilers());
const deploymentKey = keyString({ group: CORE, kind: 'MachineDeployment', namespace: 'ns', name: 'md' });
const machineKey = keyString({ group: CORE, kind: 'Machine', namespace: 'ns', name: 'md-1-abc' });

function deployment(edit: { annotations?: Record<string, string>; status?: Record<string, unknown>; generation?: number } = {}): StoredObject {
  return {
    apiVersion: `${CORE}/v1beta2`,
    kind: 'MachineDeployment',
    metadata: {
      name: 'md',
      namespace: 'ns',
      uid: 'md-uid',
      resourceVersion: '1',
      generation: edit.generation ?? 1,
      creationTimestamp: T,
      labels: { [`${CORE}/cluster-name`]: 'c1' },
      ...(edit.annotations ? { annotations: edit.annotations } : {}),
    },
    spec: { clusterName: 'c1', replicas: 3 },
    ...(edit.status ? { status: edit.status } : {}),
  };
}

async function lookup() {
  const store = await lookupWithClusters('ns', 'c1');
  await store.create({ apiVersion: `${CORE}/v1beta2`, kind: 'Machine', metadata: { name: 'md-1-abc', namespace: 'ns', labels: { [`${CORE}/cluster-name`]: 'c1' } }, spec: { clusterName: 'c1' } });
  return store;
}

const modify = (before: StoredObject, after: StoredObject): ObjectChange => ({ type: 'MODIFY', oldObject: before, newObject: after });

describe('what a MachineDeployment’s annotations wake', () => {
  it.for([
    ['its revision written: not itself, its cluster’s Machines', modify(deployment(), deployment({ annotations: { [REVISION]: '1' } })), false, true],
    ['its revision moved on: not itself, its cluster’s Machines', modify(deployment({ annotations: { [REVISION]: '1' } }), deployment({ annotations: { [REVISION]: '2' } })), false, true],
    ['another annotation: itself and the Machines', modify(deployment({ annotations: { [REVISION]: '1' } }), deployment({ annotations: { [REVISION]: '1', team: 'a' } })), true, true],
    ['its status: neither', modify(deployment(), deployment({ status: { replicas: 3 } })), false, false],
    ['its spec: itself only', modify(deployment(), deployment({ generation: 2 })), true, false],
    ['its creation: itself only (it has no Machines yet)', { type: 'INSERT', newObject: deployment() } satisfies ObjectChange, true, false],
  ] as const)('%s', async ([, change, itself, machines]) => {
    const keys = (await routeChange(change, registry, await lookup())).map(keyString);
    expect([keys.includes(deploymentKey), keys.includes(machineKey)]).toEqual([itself, machines]);
  });
});

describe('the certificate expiry a control plane records on a KubeadmConfig', () => {
  const BOOTSTRAP = 'bootstrap.cluster.x-k8s.io';
  const configKey = keyString({ group: BOOTSTRAP, kind: 'KubeadmConfig', namespace: 'ns', name: 'cp-1' });
  const config = (annotations: Record<string, string>): StoredObject => ({
    apiVersion: `${BOOTSTRAP}/v1beta2`,
    kind: 'KubeadmConfig',
    metadata: { name: 'cp-1', namespace: 'ns', uid: 'cfg-uid', resourceVersion: '1', generation: 1, creationTimestamp: T, labels: { [`${CORE}/cluster-name`]: 'c1' }, annotations },
    spec: {},
  });

  it.for([
    ['recorded: not the config itself', {}, { 'machine.cluster.x-k8s.io/certificates-expiry': '2027-01-01T00:00:00Z' }, false],
    ['paused by annotation: the config itself', {}, { 'cluster.x-k8s.io/paused': '' }, true],
  ] as const)('%s', async ([, before, after, woken]) => {
    const keys = (await routeChange(modify(config(before), config(after)), registry, await lookup())).map(keyString);
    expect(keys.includes(configKey)).toBe(woken);
  });
});
