/**
 * What a Machine writes on its Node (Cluster API's Machine controller, patchNode): the rows follow
 * its rules for labels, annotations, their tracking annotations and the taints it removes.
 */

import { describe, expect, it } from 'vitest';
import { nodePatchFor } from '../../../../functions/reconcile/core/machine/node-sync.js';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import type { NodeTaint, WorkloadNode } from '../../../../shared/ports/workload-cluster.js';

const UNINITIALIZED: NodeTaint = { key: 'node.cluster.x-k8s.io/uninitialized', effect: 'NoSchedule' };
const GPU: NodeTaint = { key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' };
const OUTDATED: NodeTaint = { key: 'node.cluster.x-k8s.io/outdated-revision', effect: 'PreferNoSchedule' };

function machine(labels: Record<string, string>, annotations: Record<string, string> = {}): StoredObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Machine',
    metadata: {
      name: 'w-1',
      namespace: 'team-a',
      uid: 'u',
      resourceVersion: '1',
      generation: 1,
      creationTimestamp: '2026-01-01T00:00:00Z',
      labels,
      annotations,
      ownerReferences: [{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineSet', name: 'md-abc', uid: 'ms', controller: true }],
    },
    spec: { clusterName: 'c1' },
  };
}

const BOOKKEEPING = {
  'cluster.x-k8s.io/cluster-name': 'c1',
  'cluster.x-k8s.io/cluster-namespace': 'team-a',
  'cluster.x-k8s.io/machine': 'w-1',
  'cluster.x-k8s.io/owner-kind': 'MachineSet',
  'cluster.x-k8s.io/owner-name': 'md-abc',
};

const WORKER_LABELS = {
  'node-role.kubernetes.io/worker': '',
  'node.cluster.x-k8s.io/pool': 'blue',
  'topology.node-restriction.kubernetes.io/zone': 'z1',
  tier: 'gold',
  'cluster.x-k8s.io/cluster-name': 'c1',
};

/** A Node as the first sync left it. */
const SYNCED: WorkloadNode = {
  name: 'ip-10-0-0-1',
  labels: { 'node-role.kubernetes.io/worker': '', 'node.cluster.x-k8s.io/pool': 'blue', 'topology.node-restriction.kubernetes.io/zone': 'z1', 'kubernetes.io/os': 'linux' },
  annotations: {
    ...BOOKKEEPING,
    'node.cluster.x-k8s.io/team': 'a',
    'cluster.x-k8s.io/labels-from-machine': 'node-role.kubernetes.io/worker,node.cluster.x-k8s.io/pool,topology.node-restriction.kubernetes.io/zone',
    'cluster.x-k8s.io/annotations-from-machine': 'node.cluster.x-k8s.io/team',
    'node.alpha.kubernetes.io/ttl': '0',
  },
  taints: [GPU],
  resourceVersion: '42',
};

describe('nodePatchFor', () => {
  it('a worker just registered: its node labels and annotations synced, the uninitialized taint removed, at the version read', () => {
    const registered: WorkloadNode = { name: 'ip-10-0-0-1', labels: { 'kubernetes.io/os': 'linux' }, annotations: { 'node.alpha.kubernetes.io/ttl': '0' }, taints: [UNINITIALIZED, GPU], resourceVersion: '7' };
    expect(nodePatchFor(machine(WORKER_LABELS, { 'node.cluster.x-k8s.io/team': 'a', 'example.com/other': 'x' }), registered, { interruptible: false, outdated: false })).toEqual({
      labels: { 'node-role.kubernetes.io/worker': '', 'node.cluster.x-k8s.io/pool': 'blue', 'topology.node-restriction.kubernetes.io/zone': 'z1' },
      annotations: {
        ...BOOKKEEPING,
        'node.cluster.x-k8s.io/team': 'a',
        'cluster.x-k8s.io/labels-from-machine': 'node-role.kubernetes.io/worker,node.cluster.x-k8s.io/pool,topology.node-restriction.kubernetes.io/zone',
        'cluster.x-k8s.io/annotations-from-machine': 'node.cluster.x-k8s.io/team',
      },
      taints: [GPU],
      resourceVersion: '7',
    });
  });

  it.each<[string, Record<string, string>, Record<string, string>, boolean, WorkloadNode, ReturnType<typeof nodePatchFor>]>([
    ['nothing changed: no patch', WORKER_LABELS, { 'node.cluster.x-k8s.io/team': 'a' }, false, SYNCED, undefined],
    [
      'a label and an annotation the Machine no longer has are removed, others on the Node stay',
      { 'node-role.kubernetes.io/worker': '', 'node.cluster.x-k8s.io/pool': 'blue' },
      {},
      false,
      SYNCED,
      {
        labels: { 'topology.node-restriction.kubernetes.io/zone': null },
        annotations: {
          'node.cluster.x-k8s.io/team': null,
          'cluster.x-k8s.io/labels-from-machine': 'node-role.kubernetes.io/worker,node.cluster.x-k8s.io/pool',
          'cluster.x-k8s.io/annotations-from-machine': '',
        },
        resourceVersion: '42',
      },
    ],
    [
      'a changed value is set',
      { ...WORKER_LABELS, 'node.cluster.x-k8s.io/pool': 'green' },
      { 'node.cluster.x-k8s.io/team': 'a' },
      false,
      SYNCED,
      { labels: { 'node.cluster.x-k8s.io/pool': 'green' }, annotations: {}, resourceVersion: '42' },
    ],
    [
      'a spot instance gets the interruptible label',
      WORKER_LABELS,
      { 'node.cluster.x-k8s.io/team': 'a' },
      true,
      SYNCED,
      {
        labels: { 'cluster.x-k8s.io/interruptible': '' },
        annotations: {
          'cluster.x-k8s.io/labels-from-machine': 'cluster.x-k8s.io/interruptible,node-role.kubernetes.io/worker,node.cluster.x-k8s.io/pool,topology.node-restriction.kubernetes.io/zone',
        },
        resourceVersion: '42',
      },
    ],
    [
      'the outdated-revision taint is removed once the Machine is current, other taints kept',
      WORKER_LABELS,
      { 'node.cluster.x-k8s.io/team': 'a' },
      false,
      { ...SYNCED, taints: [GPU, OUTDATED] },
      { labels: {}, annotations: {}, taints: [GPU], resourceVersion: '42' },
    ],
  ])('%s', (_case, labels, annotations, interruptible, node, expected) => {
    expect(nodePatchFor(machine(labels, annotations), node, { interruptible, outdated: false })).toEqual(expected);
  });

  it.each<[string, WorkloadNode['taints'], ReturnType<typeof nodePatchFor>]>([
    ['an outdated Machine taints its Node PreferNoSchedule, other taints kept', [GPU], { labels: {}, annotations: {}, taints: [GPU, OUTDATED], resourceVersion: '42' }],
    ['already tainted: no patch', [GPU, OUTDATED], undefined],
    ['a taint of that key with another effect is not it', [{ key: OUTDATED.key, effect: 'NoSchedule' }], { labels: {}, annotations: {}, taints: [{ key: OUTDATED.key, effect: 'NoSchedule' }, OUTDATED], resourceVersion: '42' }],
    ['the uninitialized taint removed in the same patch', [UNINITIALIZED], { labels: {}, annotations: {}, taints: [OUTDATED], resourceVersion: '42' }],
  ])('%s', (_case, taints, expected) => {
    const node = { ...SYNCED, taints };
    expect(nodePatchFor(machine(WORKER_LABELS, { 'node.cluster.x-k8s.io/team': 'a' }), node, { interruptible: false, outdated: true })).toEqual(expected);
  });

  it('a Machine no controller owns names no owner', () => {
    const standalone = machine({});
    standalone.metadata.ownerReferences = [];
    const patch = nodePatchFor(standalone, { name: 'n' }, { interruptible: false, outdated: false });
    expect(patch?.annotations).not.toHaveProperty('cluster.x-k8s.io/owner-kind');
    expect(patch?.annotations).toMatchObject({ 'cluster.x-k8s.io/machine': 'w-1', 'cluster.x-k8s.io/labels-from-machine': '' });
  });
});
