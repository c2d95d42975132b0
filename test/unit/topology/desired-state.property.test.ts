/**
 * The desired state is a pure function of its inputs: computed twice it is identical, and once
 * applied, computing it again from what is stored asks for no write at all (no spurious update,
 * no template rotation, no rollout on a no-op reconcile). Property-based over topologies.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { admitGenerated } from '../../../functions/reconcile/topology/cluster/admit-generated.js';
import { applyObject, updatedObject } from '../../../functions/reconcile/topology/cluster/apply.js';
import { loadBlueprint } from '../../../functions/reconcile/topology/cluster/blueprint.js';
import { loadCurrentState } from '../../../functions/reconcile/topology/cluster/current-state.js';
import { computeDesiredState, type DesiredState } from '../../../functions/reconcile/topology/cluster/desired-state.js';
import { readTopology } from '../../../functions/reconcile/topology/cluster/topology-spec.js';
import { decideUpgrade } from '../../../functions/reconcile/topology/cluster/upgrade.js';
import type { KubeObject, StoredObject } from '../../../shared/contracts/object.js';
import { keyOf } from '../../../shared/contracts/object.js';
import { builtinProviderLookup } from '../../../shared/contracts/providers/builtin-lookup.js';
import type { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { setUpTopologyCluster as setUp } from '../../support/topology-fixtures.js';

const topologyArb = fc.record({
  name: fc.stringMatching(/^[a-z][a-z0-9]{0,20}$/),
  cpReplicas: fc.option(fc.constantFrom(1, 3, 5), { nil: undefined }),
  tag: fc.stringMatching(/^[a-z0-9.]{1,10}$/),
  mds: fc.uniqueArray(
    fc.record({ name: fc.stringMatching(/^md-[a-z0-9]{1,6}$/), class: fc.constantFrom('a', 'b'), replicas: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }) }),
    { selector: (md) => md.name, maxLength: 3 },
  ),
});

async function desiredFrom(store: MemoryObjectStore, cluster: StoredObject): Promise<DesiredState> {
  const blueprint = await loadBlueprint(store, cluster);
  if (!blueprint.ok) throw new Error(blueprint.message);
  const topology = readTopology(cluster);
  if (!topology) throw new Error('no topology');
  const current = await loadCurrentState(store, cluster);
  const upgrade = decideUpgrade({
    topologyVersion: topology.version,
    clusterAnnotations: {},
    ...(current.controlPlane ? { controlPlane: current.controlPlane } : {}),
    machines: current.machines,
    machineDeployments: (topology.workers?.machineDeployments ?? []).map((md) => {
      const existing = current.machineDeployments.get(md.name)?.object;
      return { topologyName: md.name, annotations: {}, ...(existing ? { current: existing } : {}) };
    }),
    beforeUpgradeBlocked: false,
    workerHooksBlocked: false,
  });
  return await computeDesiredState({ cluster, topology, blueprint: blueprint.blueprint, current, upgrade, admit: admitGenerated(builtinProviderLookup) });
}

function objectsOf(desired: DesiredState): KubeObject[] {
  return [
    desired.infrastructureCluster,
    ...(desired.controlPlaneMachineTemplate ? [desired.controlPlaneMachineTemplate] : []),
    desired.controlPlane,
    ...(desired.controlPlaneHealthCheck ? [desired.controlPlaneHealthCheck] : []),
    ...desired.machineDeployments.flatMap((md) => [md.bootstrapTemplate, md.infrastructureTemplate, md.object, ...(md.healthCheck ? [md.healthCheck] : [])]),
  ];
}

describe('topology desired state', () => {
  it('is identical when computed twice from the same inputs', async () => {
    await fc.assert(
      fc.asyncProperty(topologyArb, async (topology) => {
        const { store, cluster } = await setUp(topology);
        expect(await desiredFrom(store, cluster)).toEqual(await desiredFrom(store, cluster));
      }),
      { numRuns: 25 },
    );
  });

  it('asks for no write once applied: same names, no update, no rotation', async () => {
    await fc.assert(
      fc.asyncProperty(topologyArb, async (topology) => {
        const { store, cluster } = await setUp(topology);
        const first = await desiredFrom(store, cluster);
        for (const object of objectsOf(first)) await applyObject(store, object, cluster, false);
        // The Cluster now points at what was created, as the topology phase writes it.
        const refs = (o: KubeObject) => ({ apiGroup: o.apiVersion.split('/')[0] ?? '', kind: o.kind, name: o.metadata.name });
        const updated = await store.update({ ...cluster, spec: { ...cluster.spec, infrastructureRef: refs(first.infrastructureCluster), controlPlaneRef: refs(first.controlPlane) } });
        const second = await desiredFrom(store, updated);
        expect(objectsOf(second).map((o) => o.metadata.name)).toEqual(objectsOf(first).map((o) => o.metadata.name));
        for (const object of objectsOf(second)) {
          const stored = await store.get(keyOf(object));
          if (!stored) throw new Error(`${object.kind} ${object.metadata.name} was not stored`);
          expect(updatedObject(stored, object, updated, false), `${object.kind} ${object.metadata.name}`).toBeUndefined();
        }
      }),
      { numRuns: 25 },
    );
  });
});
