import { describe, expect, it } from 'vitest';
import { descendantsToDelete } from '../../../../functions/reconcile/core/cluster/delete-phases.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';

function obj(kind: string, name: string): StoredObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind,
    metadata: { name, namespace: 'default', uid: `uid-${name}`, resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' },
  };
}

/**
 * Owners go first: a MachineSet that outlives its deleting Machines creates replacements for
 * them (found by the cluster-lifecycle scenario), whatever order the cluster index lists them in.
 */
describe('descendantsToDelete orders owners before what they own', () => {
  it.each<[string, StoredObject[], string[]]>([
    ['index order Machine, MachineDeployment, MachineSet', [obj('Machine', 'm'), obj('MachineDeployment', 'md'), obj('MachineSet', 'ms')], ['md', 'ms', 'm']],
    ['already in order', [obj('MachineDeployment', 'md'), obj('MachineSet', 'ms'), obj('Machine', 'm')], ['md', 'ms', 'm']],
    ['Machines only', [obj('Machine', 'b'), obj('Machine', 'a')], ['b', 'a']],
    ['two pools interleaved', [obj('Machine', 'm1'), obj('MachineSet', 'ms1'), obj('Machine', 'm2'), obj('MachineDeployment', 'md1'), obj('MachineSet', 'ms2')], ['md1', 'ms1', 'ms2', 'm1', 'm2']],
  ])('%s', (_name, descendants, expected) => {
    expect(descendantsToDelete(descendants, true).map((o) => o.metadata.name)).toEqual(expected);
  });
});
