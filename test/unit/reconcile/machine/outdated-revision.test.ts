import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../shared/contracts/object.js';
import { isOfOutdatedRevision } from '../../../../functions/reconcile/core/machine/outdated-revision.js';
import { testContext } from '../../../support/reconcile-context.js';

const CORE = 'cluster.x-k8s.io';
const REVISION = 'machinedeployment.clusters.x-k8s.io/revision';

function owned(kind: string, name: string, owner?: { kind: string; name: string; apiVersion?: string }, revision?: string): KubeObject {
  return {
    apiVersion: `${CORE}/v1beta2`,
    kind,
    metadata: {
      name,
      namespace: 'default',
      ...(revision === undefined ? {} : { annotations: { [REVISION]: revision } }),
      ...(owner ? { ownerReferences: [{ apiVersion: owner.apiVersion ?? `${CORE}/v1beta2`, kind: owner.kind, name: owner.name, uid: `${owner.name}-uid`, controller: true }] } : {}),
    },
    spec: {},
  };
}

interface Shape {
  msRevision?: string;
  mdRevision?: string;
  noDeployment?: boolean;
  ownerGroup?: string;
}

describe('a Machine is outdated when its MachineSet is behind its MachineDeployment’s revision (shouldNodeHaveOutdatedTaint)', () => {
  it.for([
    ['behind: outdated', { msRevision: '1', mdRevision: '2' }, true],
    ['the current revision: not', { msRevision: '2', mdRevision: '2' }, false],
    ['a MachineSet of no revision behind a MachineDeployment of one: outdated', { mdRevision: '1' }, true],
    ['neither has one: not', {}, false],
    ['a MachineSet no MachineDeployment owns: not', { msRevision: '1', noDeployment: true }, false],
    ['an unreadable revision: not', { msRevision: 'one', mdRevision: '2' }, false],
    ['a MachineSet of another group: not', { msRevision: '1', mdRevision: '2', ownerGroup: 'example.com/v1' }, false],
  ] as const)('%s', async ([, shape, outdated]: readonly [string, Shape, boolean]) => {
    const ctx = testContext();
    if (!shape.noDeployment) await ctx.store.create(owned('MachineDeployment', 'md', undefined, shape.mdRevision));
    await ctx.store.create(owned('MachineSet', 'ms', shape.noDeployment ? undefined : { kind: 'MachineDeployment', name: 'md' }, shape.msRevision));
    const machine = await ctx.store.create(owned('Machine', 'm', { kind: 'MachineSet', name: 'ms', ...(shape.ownerGroup ? { apiVersion: shape.ownerGroup } : {}) }));
    expect(await isOfOutdatedRevision(ctx.store, machine)).toBe(outdated);
  });

  it('a Machine of no MachineSet (a control-plane Machine) reads nothing and is not', async () => {
    const ctx = testContext();
    const machine = await ctx.store.create(owned('Machine', 'cp', { kind: 'KubeadmControlPlane', name: 'kcp' }));
    const keys: string[] = [];
    const counted = {
      get: (key: Parameters<typeof ctx.store.get>[0]) => {
        keys.push(key.name);
        return ctx.store.get(key);
      },
    };
    expect(await isOfOutdatedRevision(counted, machine)).toBe(false);
    expect(keys).toEqual([]);
  });
});
