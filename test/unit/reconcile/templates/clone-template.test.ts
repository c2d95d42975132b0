import { describe, expect, it } from 'vitest';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import { cloneFromTemplate, kindFromTemplate } from '../../../../functions/reconcile/engine/templates/clone-template.js';

describe('kindFromTemplate', () => {
  it.each<[string, string | undefined]>([
    ['KubeadmConfigTemplate', 'KubeadmConfig'],
    ['InMemoryMachineTemplate', 'InMemoryMachine'],
    ['Template', undefined],
    ['KubeadmConfig', undefined],
  ])('%s → %s', (kind, expected) => {
    expect(kindFromTemplate(kind)).toBe(expected);
  });
});

function template(kind: string, templateBody: Record<string, unknown>): StoredObject {
  return {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind,
    metadata: { name: 'tmpl', namespace: 'ns', uid: 'u', resourceVersion: '1', generation: 1, creationTimestamp: 'x' },
    spec: { template: templateBody },
  };
}

describe('cloneFromTemplate', () => {
  it.each<[string, StoredObject, unknown]>([
    [
      'copies spec, template labels and annotations, adds cloned-from and cluster label',
      template('InMemoryMachineTemplate', { metadata: { labels: { a: '1' }, annotations: { b: '2' } }, spec: { startupSeconds: 5 } }),
      {
        apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
        kind: 'InMemoryMachine',
        metadata: {
          name: 'm-1',
          namespace: 'ns',
          labels: { a: '1', extra: 'x', 'cluster.x-k8s.io/cluster-name': 'c1' },
          annotations: {
            b: '2',
            'cluster.x-k8s.io/cloned-from-name': 'tmpl',
            'cluster.x-k8s.io/cloned-from-groupkind': 'InMemoryMachineTemplate.infrastructure.cluster.x-k8s.io',
          },
        },
        spec: { startupSeconds: 5 },
      },
    ],
    ['not a template kind', template('InMemoryMachine', { spec: {} }), undefined],
    [
      'template without spec clones an empty spec',
      template('InMemoryMachineTemplate', {}),
      expect.objectContaining({ kind: 'InMemoryMachine', spec: {} }),
    ],
  ])('%s', (_name, tmpl, expected) => {
    expect(cloneFromTemplate({ template: tmpl, name: 'm-1', clusterName: 'c1', labels: { extra: 'x' } })).toEqual(expected);
  });
});
