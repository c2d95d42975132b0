/**
 * examples/in-memory-cluster.yaml, admitted like the API admits it, converges with the built-in
 * provider registry (core + kubeadm bootstrap + kubeadm control plane + in-memory): every
 * Machine Running, the Cluster Provisioned and Available, then Cluster deletion removes it all.
 */

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { builtinProviderRegistry } from '../../../functions/reconcile/engine/providers/builtin.js';
import { admitCreate } from '../../../shared/contracts/admission/admit.js';
import { conditionsOf, findCondition } from '../../../shared/contracts/conditions.js';
import { BUILTIN_KINDS, KindRegistry } from '../../../shared/contracts/kinds.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { converge } from '../../support/converge.js';
import { FakeClock } from '../../support/fake-clock.js';

describe('examples/in-memory-cluster.yaml on the built-in providers', () => {
  const clock = new FakeClock();
  const store = new MemoryObjectStore({ clock });
  const providers = builtinProviderRegistry();
  const kinds = new KindRegistry([...BUILTIN_KINDS, ...providers.kinds()]);
  const cluster = { group: 'cluster.x-k8s.io', kind: 'Cluster', namespace: 'default', name: 'dev' };

  it('converges: 3 control-plane and 2 worker Machines Running, Cluster Available', async () => {
    for (const doc of parseAllDocuments(readFileSync('examples/in-memory-cluster.yaml', 'utf8'))) {
      await store.create(admitCreate(doc.toJS(), { kinds, isServedKind: (g, k) => providers.isServedKind(g, k) }));
    }
    const stats = await converge(providers, store, { clock, maxRounds: 200 });
    expect(stats.errors.map((e) => `${e.key}: ${String(e.error)}`)).toEqual([]);
    expect(stats.converged).toBe(true);
    const machines = (await store.list({ group: 'cluster.x-k8s.io', kind: 'Machine' })).items;
    expect(machines.map((m) => m.status?.phase)).toEqual(Array(5).fill('Running'));
    const obj = await store.get(cluster);
    expect(obj?.status?.phase).toBe('Provisioned');
    expect(findCondition(conditionsOf(obj?.status), 'Available')?.status).toBe('True');
    expect((stats.writesByKind.Machine ?? 0) / machines.length).toBeLessThanOrEqual(25);
  });

  it('deletes the Cluster and leaves no Machines, control plane or infrastructure behind', async () => {
    await store.delete(cluster);
    const stats = await converge(providers, store, { clock, maxRounds: 200 });
    expect(stats.errors.map((e) => `${e.key}: ${String(e.error)}`)).toEqual([]);
    for (const [group, kind] of [
      ['cluster.x-k8s.io', 'Cluster'],
      ['cluster.x-k8s.io', 'Machine'],
      ['cluster.x-k8s.io', 'MachineSet'],
      ['controlplane.cluster.x-k8s.io', 'KubeadmControlPlane'],
      ['bootstrap.cluster.x-k8s.io', 'KubeadmConfig'],
      ['infrastructure.cluster.x-k8s.io', 'InMemoryMachine'],
      ['infrastructure.cluster.x-k8s.io', 'InMemoryCluster'],
    ] as const) {
      expect({ kind, left: (await store.list({ group, kind })).items.length }).toEqual({ kind, left: 0 });
    }
  });
});
