import type { KindInfo, KindRegistry } from '../../../shared/contracts/kinds.js';
import type { KubeObject, ObjectKey } from '../../../shared/contracts/object.js';

export const NS = 'default';
const CORE = 'cluster.x-k8s.io/v1beta2';

/** The seeded Secret's values: no response to a principal without secrets permissions may carry them, encoded or not. */
export const SECRET_VALUES = ['hunter2-SECRET-VALUE-42', 'ca-key:Zq8#kP1@secret-plaintext'] as const;
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** Every form a seeded Secret value could leak in: plain text and base64 (the `data` encoding). */
export const SECRET_NEEDLES: readonly string[] = SECRET_VALUES.flatMap((value) => [value, b64(value)]);

export const SEED_OBJECTS: readonly KubeObject[] = [
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: NS, labels: { app: 'seed' } }, data: { a: 'b' } },
  {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: { name: 's1', namespace: NS, labels: { app: 'seed' } },
    data: { k: b64(SECRET_VALUES[0]), ca: b64(SECRET_VALUES[1]) },
  },
  { apiVersion: CORE, kind: 'Cluster', metadata: { name: 'cl', namespace: NS }, spec: { clusterNetwork: { pods: { cidrBlocks: ['192.168.0.0/16'] } } } },
  // The Cluster test/support/bad-requests.ts aims at.
  { apiVersion: CORE, kind: 'Cluster', metadata: { name: 'seed', namespace: NS, labels: { app: 'seed' } }, spec: { clusterNetwork: { pods: { cidrBlocks: ['192.168.0.0/16'] } } } },
  {
    apiVersion: CORE,
    kind: 'MachineSet',
    metadata: { name: 'ms', namespace: NS },
    spec: {
      clusterName: 'cl',
      replicas: 1,
      selector: { matchLabels: { set: 'ms' } },
      template: {
        metadata: { labels: { set: 'ms' } },
        spec: {
          clusterName: 'cl',
          bootstrap: { dataSecretName: 's1' },
          infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachineTemplate', name: 'ms' },
        },
      },
    },
  },
];

/** Where a seed lives: its key, collection path and object path. */
export interface SeedRef {
  kind: string;
  info: KindInfo;
  key: ObjectKey;
  collection: string;
  path: string;
}

export function collectionPath(info: KindInfo, namespace: string | undefined, version = info.versions[0] ?? 'v1'): string {
  const root = info.group === '' ? `/api/${version}` : `/apis/${info.group}/${version}`;
  return namespace === undefined ? `${root}/${info.plural}` : `${root}/namespaces/${namespace}/${info.plural}`;
}

export function seedRefs(kinds: KindRegistry): SeedRef[] {
  return SEED_OBJECTS.map((object) => {
    const group = object.apiVersion.includes('/') ? (object.apiVersion.split('/')[0] ?? '') : '';
    const info = kinds.get(group, object.kind);
    if (!info) throw new Error(`no kind ${object.kind}`);
    const name = object.metadata.name ?? '';
    const collection = collectionPath(info, NS);
    return { kind: object.kind, info, key: { group, kind: object.kind, namespace: NS, name }, collection, path: `${collection}/${name}` };
  });
}

export const SEED_NAMES = SEED_OBJECTS.map((o) => o.metadata.name ?? '');

/** A MachineDeployment admission accepts (checked by the regression suite), for replica and template attacks. */
export function machineDeployment(name: string, replicas: unknown): Record<string, unknown> {
  return {
    apiVersion: CORE,
    kind: 'MachineDeployment',
    metadata: { name, namespace: NS },
    spec: {
      clusterName: 'cl',
      replicas,
      selector: { matchLabels: { deploy: name } },
      template: {
        metadata: { labels: { deploy: name } },
        spec: {
          clusterName: 'cl',
          bootstrap: { dataSecretName: 's1' },
          infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachineTemplate', name },
        },
      },
    },
  };
}
