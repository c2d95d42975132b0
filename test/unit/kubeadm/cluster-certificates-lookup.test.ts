import { describe, expect, it } from 'vitest';
import { encodeSecretValue } from '../../../functions/reconcile/kubeadm/common/secret-data.js';
import { ensureClusterCertificates, lookupClusterCertificates, missingPurposes } from '../../../functions/reconcile/kubeadm/common/cluster-certificates.js';
import { LABEL_CLUSTER_NAME, type KubeObject } from '../../../shared/contracts/object.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { CountingStore } from '../../../bench/counting-store.js';

const NS = 'certs';
const CLUSTER = 'c1';

function secret(purpose: string, options: { labelled: boolean; complete?: boolean }): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: `${CLUSTER}-${purpose}`,
      namespace: NS,
      ...(options.labelled ? { labels: { [LABEL_CLUSTER_NAME]: CLUSTER } } : {}),
    },
    data: {
      'tls.crt': encodeSecretValue(`${purpose}-cert`),
      ...(options.complete === false ? {} : { 'tls.key': encodeSecretValue(`${purpose}-key`) }),
    },
  };
}

async function lookUp(secrets: KubeObject[], externalEtcd = false) {
  const store = new CountingStore(new MemoryObjectStore());
  for (const s of secrets) await store.create(s);
  const before = store.counts().reads;
  const found = await lookupClusterCertificates(store, { namespace: NS, clusterName: CLUSTER }, externalEtcd);
  return { found, reads: store.counts().reads - before };
}

describe('Function: lookupClusterCertificates', () => {
  it.each([
    ['all four labelled: one list answers', ['ca', 'etcd', 'proxy', 'sa'], [], ['ca', 'etcd', 'proxy', 'sa'], 1],
    ["a user's own CA without the cluster label is still found, by name", ['etcd', 'proxy', 'sa'], ['ca'], ['ca', 'etcd', 'proxy', 'sa'], 2],
    ['none yet: the list and a get per purpose', [], [], [], 5],
  ] as const)('%s', async (_name, labelled, unlabelled, expected, reads) => {
    const result = await lookUp([
      ...labelled.map((p) => secret(p, { labelled: true })),
      ...unlabelled.map((p) => secret(p, { labelled: false })),
    ]);
    expect(Object.keys(result.found).sort()).toEqual([...expected]);
    expect(result.found.ca?.cert ?? 'ca-cert').toBe('ca-cert');
    expect(result.reads).toBe(reads);
  });

  it('an incomplete Secret (no tls.key) is not a pair, listed or read by name', async () => {
    const { found } = await lookUp([secret('ca', { labelled: true, complete: false }), secret('sa', { labelled: false, complete: false })]);
    expect(found).toEqual({});
  });

  it.for([
    ['the etcd CA a certificate only, and the API server’s client pair: complete', ['ca', 'proxy', 'sa'], true, true, []],
    ['without the API server’s client pair: it is missing', ['ca', 'proxy', 'sa'], true, false, ['apiserver-etcd-client']],
    ['without the etcd CA: it is missing', ['ca', 'proxy', 'sa'], false, true, ['etcd']],
  ] as const)('external etcd: %s', async ([, generated, etcdCa, client, missing]) => {
    const secrets = [
      ...generated.map((p) => secret(p, { labelled: true })),
      ...(etcdCa ? [secret('etcd', { labelled: true, complete: false })] : []),
      ...(client ? [secret('apiserver-etcd-client', { labelled: false })] : []),
    ];
    const { found } = await lookUp(secrets, true);
    expect(missingPurposes(found, true)).toEqual(missing);
    if (etcdCa) expect(found.etcd).toEqual({ cert: 'etcd-cert', key: '' });
    if (client) expect(found['apiserver-etcd-client']).toEqual({ cert: 'apiserver-etcd-client-cert', key: 'apiserver-etcd-client-key' });
  });

  it('external etcd: only the cluster’s own CAs are generated; the etcd CA and the client pair wait for the user', async () => {
    const store = new MemoryObjectStore();
    const fresh = { cert: 'fresh-cert', key: 'fresh-key' };
    const found = await ensureClusterCertificates(store, {
      namespace: NS,
      clusterName: CLUSTER,
      owner: { apiVersion: 'v1', kind: 'Cluster', name: CLUSTER, uid: 'u1' },
      generate: () => ({ ca: fresh, etcd: fresh, proxy: fresh, sa: fresh }),
      externalEtcd: true,
    });
    expect(missingPurposes(found, true)).toEqual(['etcd', 'apiserver-etcd-client']);
    const names = (await store.list({ group: '', kind: 'Secret', namespace: NS })).items.map((s) => s.metadata.name).sort();
    expect(names).toEqual([`${CLUSTER}-ca`, `${CLUSTER}-proxy`, `${CLUSTER}-sa`]);
  });
});
