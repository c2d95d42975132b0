import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { encodeSecretValue } from '../../../../functions/reconcile/kubeadm/common/secret-data.js';
import { conditionsOf, findCondition } from '../../../../shared/contracts/conditions.js';
import { isRecord, stringAt } from '../../../../shared/contracts/json.js';
import { LABEL_CLUSTER_NAME, type StoredObject } from '../../../../shared/contracts/object.js';
import { generateCertificateAuthority } from '../../../../shared/pki/index.js';
import { cpMachines, kcp, NS, setup } from '../../../support/kcp-converge.js';

const EXTERNAL = {
  endpoints: ['https://etcd-0.example.com:2379'],
  caFile: '/etc/kubernetes/pki/etcd/ca.crt',
  certFile: '/etc/kubernetes/pki/apiserver-etcd-client.crt',
  keyFile: '/etc/kubernetes/pki/apiserver-etcd-client.key',
};

function writtenFiles(secret: StoredObject | undefined): Map<string, string> {
  const raw = Buffer.from(secret?.data?.value ?? '', 'base64');
  const text = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
  const doc: unknown = parse(text);
  const files = isRecord(doc) && Array.isArray(doc.write_files) ? doc.write_files.filter(isRecord) : [];
  return new Map(files.map((f) => [String(f.path), String(f.content ?? '')]));
}

function userSecret(name: string, data: Record<string, string>) {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: NS, labels: { [LABEL_CLUSTER_NAME]: 'c1' } }, data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, encodeSecretValue(v)])) };
}

describe('a KubeadmControlPlane on an external etcd (converge harness, in-memory provider)', () => {
  it('waits for the user’s etcd CA and client pair, generates only its own CAs, and puts them where the spec says on every control-plane Node', async () => {
    const { store, run } = await setup(3, { kubeadmConfigSpec: { format: 'cloud-config', clusterConfiguration: { encryptionAlgorithm: 'ECDSA-P256', etcd: { external: EXTERNAL } } } });
    expect((await run()).errors).toEqual([]);
    expect(await cpMachines(store)).toEqual([]);
    const waiting = findCondition(conditionsOf((await kcp(store))?.status), 'CertificatesAvailable');
    expect(waiting).toMatchObject({ status: 'False', reason: 'CertificatesMissing', message: 'missing: c1-etcd, c1-apiserver-etcd-client' });
    const generated = (await store.list({ group: '', kind: 'Secret', namespace: NS })).items.map((s) => s.metadata.name).sort();
    expect(generated).toEqual(['c1-ca', 'c1-kubeconfig', 'c1-proxy', 'c1-sa']);

    const etcdCa = await generateCertificateAuthority({ now: new Date('2026-03-01T00:00:00Z'), commonName: 'external-etcd-ca', algorithm: 'ECDSA-P256' });
    await store.create(userSecret('c1-etcd', { 'tls.crt': etcdCa.certPem }));
    await store.create(userSecret('c1-apiserver-etcd-client', { 'tls.crt': 'client-cert-pem', 'tls.key': 'client-key-pem' }));
    const stats = await run();
    expect(stats.errors).toEqual([]);
    const machines = await cpMachines(store);
    expect(machines.map((m) => stringAt(m, 'status', 'phase'))).toEqual(['Running', 'Running', 'Running']);
    expect(findCondition(conditionsOf((await kcp(store))?.status), 'CertificatesAvailable')?.status).toBe('True');

    for (const machine of machines) {
      const dataSecret = stringAt(machine, 'spec', 'bootstrap', 'dataSecretName') ?? '';
      const files = writtenFiles(await store.get({ group: '', kind: 'Secret', namespace: NS, name: dataSecret }));
      expect(files.get(EXTERNAL.caFile)).toBe(etcdCa.certPem);
      expect(files.get(EXTERNAL.certFile)?.trim()).toBe('client-cert-pem');
      expect(files.get(EXTERNAL.keyFile)?.trim()).toBe('client-key-pem');
      expect(files.has('/etc/kubernetes/pki/etcd/ca.key')).toBe(false);
      expect(files.has('/etc/kubernetes/pki/ca.key')).toBe(true);
    }
    // The user's etcd CA is used as it is: never given a generated key.
    expect((await store.get({ group: '', kind: 'Secret', namespace: NS, name: 'c1-etcd' }))?.data).not.toHaveProperty('tls.key');
  });
});
