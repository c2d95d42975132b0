import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { isRecord } from '../../../shared/contracts/json.js';
import {
  encodeBootstrapData,
  missingCertificates,
  renderCloudConfig,
  USER_DATA_LIMIT_BYTES,
  userDataBytes,
} from '../../../shared/kubeadm/index.js';
import { caCertHash } from '../../../shared/pki/index.js';
import { type RenderedRoles, renderRoles } from './fixtures.js';

interface WriteFile {
  path: string;
  owner?: string;
  permissions?: string;
  content: string;
}

function cloudConfig(text: string): { write_files: WriteFile[]; runcmd: string[]; [key: string]: unknown } {
  const value: unknown = parse(text);
  if (!isRecord(value) || !Array.isArray(value.write_files) || !Array.isArray(value.runcmd)) {
    throw new Error('not a cloud-config with write_files and runcmd');
  }
  const files = value.write_files.filter(isRecord).map((f) => ({
    path: String(f.path),
    owner: f.owner === undefined ? undefined : String(f.owner),
    permissions: f.permissions === undefined ? undefined : String(f.permissions),
    content: String(f.content),
  }));
  return { ...value, write_files: files, runcmd: value.runcmd.map(String) };
}

function kubeadmDocs(file: WriteFile | undefined): Record<string, unknown>[] {
  if (!file) throw new Error('kubeadm file missing');
  return parseAllDocuments(file.content)
    .map((d) => d.toJS())
    .filter(isRecord);
}

const CERT_PATHS = [
  ['/etc/kubernetes/pki/ca.crt', '0640'],
  ['/etc/kubernetes/pki/ca.key', '0600'],
  ['/etc/kubernetes/pki/etcd/ca.crt', '0640'],
  ['/etc/kubernetes/pki/etcd/ca.key', '0600'],
  ['/etc/kubernetes/pki/front-proxy-ca.crt', '0640'],
  ['/etc/kubernetes/pki/front-proxy-ca.key', '0600'],
  ['/etc/kubernetes/pki/sa.pub', '0640'],
  ['/etc/kubernetes/pki/sa.key', '0600'],
];
const USER_FILES = ['/etc/sysctl.d/99-kubernetes.conf', '/etc/motd'];
const SENTINEL = 'echo success > /run/cluster-api/bootstrap-success.complete';

describe.each([
  ['v1.29.0', 'kubeadm.k8s.io/v1beta3'],
  ['v1.31.2', 'kubeadm.k8s.io/v1beta4'],
  ['v1.32.0', 'kubeadm.k8s.io/v1beta4'],
])('cloud-config for Kubernetes %s (%s)', (version, apiVersion) => {
  let roles: RenderedRoles;
  beforeAll(async () => {
    roles = await renderRoles(version, 'ECDSA-P256');
  });

  it('every role starts with the jinja header and a blank line, and ends in one newline', () => {
    for (const text of [roles.init, roles.controlPlaneJoin, roles.worker]) {
      expect(text.startsWith('## template: jinja\n#cloud-config\n\nwrite_files:\n-   path: ')).toBe(true);
      expect(text.endsWith('\n')).toBe(true);
      expect(text.endsWith('\n\n')).toBe(false);
    }
  });

  it('init: certificates, spec.files, kubeadm.yaml (Cluster + Init documents), placeholder; runcmd order', () => {
    const config = cloudConfig(roles.init);
    expect(config.write_files.map((f) => f.path)).toEqual([
      ...CERT_PATHS.map(([p]) => p),
      ...USER_FILES,
      '/run/kubeadm/kubeadm.yaml',
      '/run/cluster-api/placeholder',
    ]);
    for (const [path, mode] of CERT_PATHS) {
      expect(config.write_files.find((f) => f.path === path)).toMatchObject({ owner: 'root:root', permissions: mode });
    }
    expect(config.write_files.find((f) => f.path === '/etc/kubernetes/pki/ca.crt')?.content).toBe(
      roles.certificates.ca['tls.crt'],
    );
    const kubeadm = config.write_files.find((f) => f.path === '/run/kubeadm/kubeadm.yaml');
    expect(kubeadm).toMatchObject({ owner: 'root:root', permissions: '0640' });
    expect(kubeadm?.content.startsWith('---\n')).toBe(true);
    const docs = kubeadmDocs(kubeadm);
    expect(docs.map((d) => [d.apiVersion, d.kind])).toEqual([
      [apiVersion, 'ClusterConfiguration'],
      [apiVersion, 'InitConfiguration'],
    ]);
    expect(docs[0]).toMatchObject({ clusterName: 'demo', kubernetesVersion: version });
    expect(config.runcmd).toEqual([
      'sysctl --system',
      'echo "pre $(date)"',
      `kubeadm init --config /run/kubeadm/kubeadm.yaml --v 5 && ${SENTINEL}`,
      "echo 'done'",
    ]);
    expect(roles.init).toContain(`\n  - 'kubeadm init --config /run/kubeadm/kubeadm.yaml --v 5 && ${SENTINEL}'\n`);
    expect(roles.init).toContain('\n  - "echo \\"pre $(date)\\""\n');
  });

  it('control-plane join: certificates, spec.files, the join file without a leading ---, placeholder', () => {
    const config = cloudConfig(roles.controlPlaneJoin);
    expect(config.write_files.map((f) => f.path)).toEqual([
      ...CERT_PATHS.map(([p]) => p),
      ...USER_FILES,
      '/run/kubeadm/kubeadm-join-config.yaml',
      '/run/cluster-api/placeholder',
    ]);
    const join = config.write_files.find((f) => f.path === '/run/kubeadm/kubeadm-join-config.yaml');
    expect(join?.content.startsWith('---')).toBe(false);
    const [doc] = kubeadmDocs(join);
    expect(doc).toMatchObject({ apiVersion, kind: 'JoinConfiguration', controlPlane: { localAPIEndpoint: {} } });
    expect(doc?.discovery).toMatchObject({
      bootstrapToken: { token: roles.token, caCertHashes: [caCertHash(roles.certificates.ca['tls.crt'])] },
    });
    expect(config.runcmd[2]).toBe(`kubeadm join --config /run/kubeadm/kubeadm-join-config.yaml --v 5 && ${SENTINEL}`);
    expect(roles.controlPlaneJoin).toContain(`\n  - kubeadm join --config /run/kubeadm/kubeadm-join-config.yaml --v 5 && ${SENTINEL}\n`);
  });

  it('worker: no certificates, the join file with a leading ---, uninitialized taint', () => {
    const config = cloudConfig(roles.worker);
    expect(config.write_files.map((f) => f.path)).toEqual([
      ...USER_FILES,
      '/run/kubeadm/kubeadm-join-config.yaml',
      '/run/cluster-api/placeholder',
    ]);
    const join = config.write_files.find((f) => f.path === '/run/kubeadm/kubeadm-join-config.yaml');
    expect(join?.content.startsWith('---\n')).toBe(true);
    const [doc] = kubeadmDocs(join);
    expect(doc).toMatchObject({ apiVersion, kind: 'JoinConfiguration' });
    expect(doc?.controlPlane).toBeUndefined();
    expect(JSON.stringify(doc?.nodeRegistration)).toContain('node.cluster.x-k8s.io/uninitialized');
    expect(roles.worker).not.toContain('PRIVATE KEY');
  });
});

describe('cloud-config details', () => {
  const worker = (extra: object) =>
    renderCloudConfig({ role: 'worker', kubeadmDocuments: { joinConfiguration: 'kind: JoinConfiguration\n' }, ...extra });

  it('without verbosity the kubeadm line keeps two spaces before &&', () => {
    expect(worker({})).toContain(`kubeadm-join-config.yaml  && ${SENTINEL}`);
  });

  it('writes file keys in upstream order and quoting, then optional sections after runcmd', () => {
    const text = worker({
      files: [{ path: '/etc/x', encoding: 'gzip+base64', owner: 'root:root', permissions: '0600', append: true, content: 'H4s=' }],
      bootCommands: ['echo boot'],
      ntp: { servers: ['pool.ntp.org'] },
      mounts: [['data', '/data']],
    });
    expect(text).toContain(
      "-   path: /etc/x\n    encoding: \"gzip+base64\"\n    owner: root:root\n    permissions: '0600'\n    append: true\n    content: |\n      H4s=\n",
    );
    expect(text).toContain('\nbootcmd:\n  - "echo boot"\nruncmd:\n');
    expect(text).toContain('\nntp:\n  servers:\n    - pool.ntp.org\nmounts:\n  - - data\n    - /data\n    \n');
    const parsed = cloudConfig(text);
    expect(Object.keys(parsed)).toEqual(['write_files', 'bootcmd', 'runcmd', 'ntp', 'mounts']);
  });

  it('refuses an init without every certificate and key, naming what is missing', () => {
    const input = { data: { ca: { 'tls.crt': 'c', 'tls.key': 'k' }, etcd: { 'tls.crt': 'c' } } };
    expect(missingCertificates(input)).toEqual(['etcd: tls.key', 'proxy: tls.crt', 'proxy: tls.key', 'sa: tls.crt', 'sa: tls.key']);
    expect(() =>
      renderCloudConfig({
        role: 'init',
        kubeadmDocuments: { clusterConfiguration: 'a: 1\n', initConfiguration: 'b: 2\n' },
        certificates: input,
      }),
    ).toThrow(/cluster certificates missing: etcd: tls.key/);
  });

  it('with external etcd, the etcd CA is a certificate only and the apiserver-etcd-client pair is written', () => {
    const certificates = {
      data: {
        ca: { 'tls.crt': 'ca', 'tls.key': 'cak' },
        etcd: { 'tls.crt': 'etcd' },
        proxy: { 'tls.crt': 'p', 'tls.key': 'pk' },
        sa: { 'tls.crt': 's', 'tls.key': 'sk' },
      },
      certificatesDir: '/var/lib/pki',
      externalEtcd: { caFile: '/etc/etcd/ca.crt', certFile: '/etc/etcd/client.crt', keyFile: '/etc/etcd/client.key' },
      apiServerEtcdClient: { 'tls.crt': 'cc', 'tls.key': 'ck' },
    };
    const text = renderCloudConfig({ role: 'controlPlaneJoin', kubeadmDocuments: { joinConfiguration: 'kind: JoinConfiguration\n' }, certificates });
    expect(cloudConfig(text).write_files.map((f) => f.path).slice(0, 8)).toEqual([
      '/var/lib/pki/ca.crt',
      '/var/lib/pki/ca.key',
      '/etc/etcd/ca.crt',
      '/var/lib/pki/front-proxy-ca.crt',
      '/var/lib/pki/front-proxy-ca.key',
      '/var/lib/pki/sa.pub',
      '/var/lib/pki/sa.key',
      '/etc/etcd/client.crt',
    ]);
  });
});

describe('encodeBootstrapData and the 16 KB user-data limit', () => {
  let rsaRoles: RenderedRoles;
  beforeAll(async () => {
    rsaRoles = await renderRoles('v1.31.2', 'RSA-2048');
  }, 60_000);

  it.each(['init', 'controlPlaneJoin', 'worker'] as const)('%s with RSA-2048 keys and a 65-character endpoint fits 16,384 bytes', (role) => {
    const text = rsaRoles[role];
    const data = encodeBootstrapData(text);
    const raw = Buffer.byteLength(text);
    console.info(`bootstrap data ${role} RSA-2048: raw ${raw} B, stored ${data.bytes} B, gzipped=${data.gzipped}`);
    expect(data.withinUserDataLimit).toBe(true);
    expect(data.gzipped).toBe(raw > USER_DATA_LIMIT_BYTES);
    const bytes = userDataBytes(data);
    expect((data.gzipped ? gunzipSync(bytes) : bytes).toString('utf8')).toBe(text);
  });

  it('gzips text over the limit (an RSA-4096-sized init) and it round-trips', () => {
    const text = `${rsaRoles.init}${rsaRoles.controlPlaneJoin.slice(0, 9_000)}`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(USER_DATA_LIMIT_BYTES);
    const data = encodeBootstrapData(text);
    expect(data).toMatchObject({ gzipped: true, withinUserDataLimit: true });
    expect(data.bytes).toBeLessThan(USER_DATA_LIMIT_BYTES);
    expect(gunzipSync(userDataBytes(data)).toString('utf8')).toBe(text);
  });

  it('reports withinUserDataLimit=false when even gzip does not fit', () => {
    const noise = Array.from({ length: 40_000 }, (_, i) => ((i * 2_654_435_761) >>> 0).toString(36)).join('');
    const data = encodeBootstrapData(noise);
    expect(data.gzipped).toBe(true);
    expect(data.bytes).toBeGreaterThan(USER_DATA_LIMIT_BYTES);
    expect(data.withinUserDataLimit).toBe(false);
  });

  it('leaves small data as plain text', () => {
    expect(encodeBootstrapData('#cloud-config\n')).toEqual({
      value: '#cloud-config\n',
      format: 'cloud-config',
      bytes: 14,
      gzipped: false,
      withinUserDataLimit: true,
    });
  });
});
