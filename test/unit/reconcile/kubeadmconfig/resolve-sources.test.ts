import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kubeadmConfigReconciler } from '../../../../functions/reconcile/kubeadm/bootstrap/reconciler.js';
import { normalizedVersion, resolveSpecSources } from '../../../../functions/reconcile/kubeadm/bootstrap/resolve-sources.js';
import { encodeSecretValue } from '../../../../functions/reconcile/kubeadm/common/secret-data.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import { isRecord } from '../../../../shared/contracts/json.js';
import type { KubeObject, StoredObject } from '../../../../shared/contracts/object.js';
import { TerminalError, TransientError } from '../../../../shared/errors/index.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { CLUSTER, configKey, createCluster, createMachineWithConfig, FAST_CLUSTER_CONFIGURATION, NS, newEnv, secretKey, setStatus } from './fixtures.js';

function secret(name: string, data: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: NS }, data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, encodeSecretValue(v)])) };
}

async function world(controlPlaneVersion?: string) {
  const store = new MemoryObjectStore();
  await store.create(secret('files', { 'audit.yaml': 'apiVersion: audit.k8s.io/v1\nkind: Policy\n', passwd: '$6$rounds=4096$hash' }));
  if (controlPlaneVersion) {
    await store.create({ apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'KubeadmControlPlane', metadata: { name: 'cp', namespace: NS }, spec: { version: controlPlaneVersion } });
  }
  const cluster = await store.create({
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: { name: CLUSTER, namespace: NS },
    spec: controlPlaneVersion ? { controlPlaneRef: { apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', name: 'cp' } } : {},
  });
  return { store, cluster };
}

async function resolved(spec: Record<string, unknown>, controlPlaneVersion?: string): Promise<unknown> {
  const { store, cluster } = await world(controlPlaneVersion);
  return resolveSpecSources(store, cluster, spec).catch((error: unknown) => error);
}

describe('files and users resolved from what a KubeadmConfig names (resolveFiles, resolveUsers, renderTemplates)', () => {
  it.for([
    ['a file’s contentFrom becomes its content', { files: [{ path: '/etc/audit.yaml', contentFrom: { secret: { name: 'files', key: 'audit.yaml' } } }] }, undefined, { files: [{ path: '/etc/audit.yaml', content: 'apiVersion: audit.k8s.io/v1\nkind: Policy\n' }] }],
    ['a user’s passwdFrom becomes its passwd', { users: [{ name: 'ops', passwdFrom: { secret: { name: 'files', key: 'passwd' } } }] }, undefined, { users: [{ name: 'ops', passwd: '$6$rounds=4096$hash' }] }],
    ['a Template file sees the control plane’s version, normalized', { files: [{ path: '/etc/v', content: 'k8s {{ .controlPlane.version }}', contentFormat: 'Template' }] }, '1.35', { files: [{ path: '/etc/v', content: 'k8s v1.35.0' }] }],
    ['a Template from a Secret', { files: [{ path: '/etc/a', contentFrom: { secret: { name: 'files', key: 'audit.yaml' } }, contentFormat: 'Template' }] }, 'v1.32.0', { files: [{ path: '/etc/a', content: 'apiVersion: audit.k8s.io/v1\nkind: Policy\n' }] }],
    ['Raw content as it is', { files: [{ path: '/etc/r', content: '{{ not rendered }}', contentFormat: 'Raw' }] }, undefined, { files: [{ path: '/etc/r', content: '{{ not rendered }}' }] }],
    ['nothing named: the spec unchanged', { files: [{ path: '/etc/x', content: 'x' }], users: [{ name: 'a' }] }, undefined, { files: [{ path: '/etc/x', content: 'x' }], users: [{ name: 'a' }] }],
  ] as const)('%s', async ([, spec, version, expected]) => {
    expect(await resolved(structuredClone(spec) as Record<string, unknown>, version)).toEqual(expected);
  });

  it.for([
    ['a Secret not there yet: transient', { files: [{ path: '/x', contentFrom: { secret: { name: 'absent', key: 'k' } } }] }, 'v1.32.0', TransientError, 'failed to resolve file source: secret not found: default/absent'],
    ['a key not in it: transient', { users: [{ name: 'a', passwdFrom: { secret: { name: 'files', key: 'nope' } } }] }, 'v1.32.0', TransientError, 'failed to resolve passwd source: secret references non-existent secret key: "nope"'],
    ['a template that does not parse: terminal', { files: [{ path: '/t', content: '{{ .controlPlane.version ', contentFormat: 'Template' }] }, 'v1.32.0', TerminalError, 'failed to render templates: template for file "/t"'],
    ['a template that needs a version no control plane gives: terminal, as Go fails it', { files: [{ path: '/v', content: '{{ .controlPlane.version }}', contentFormat: 'Template' }] }, undefined, TerminalError, 'nil pointer evaluating'],
  ] as const)('%s', async ([, spec, version, type, message]) => {
    const error = await resolved(structuredClone(spec) as Record<string, unknown>, version);
    expect(error).toBeInstanceOf(type);
    expect(String(error)).toContain(message);
  });

  it.for([
    ['1.35', 'v1.35.0'],
    ['v1.32.1', 'v1.32.1'],
    ['v1.33.0-rc.1', 'v1.33.0-rc.1'],
    ['latest', undefined],
  ] as const)('the version %s as %s', ([given, expected]) => {
    expect(normalizedVersion(given)).toBe(expected);
  });

  it('the bootstrap data carries the resolved file (the reconciler resolves before rendering)', async () => {
    const { store, ctx } = newEnv();
    const cluster = await createCluster(store, { initialized: false });
    await createMachineWithConfig(store, 'first', { controlPlane: true });
    await runReconcile(kubeadmConfigReconciler, ctx, configKey('first'));
    await setStatus(store, cluster, { initialization: { infrastructureProvisioned: true, controlPlaneInitialized: true } });
    await store.create(secret('files', { 'audit.yaml': 'kind: Policy\n' }));
    const spec = { format: 'cloud-config', clusterConfiguration: FAST_CLUSTER_CONFIGURATION, joinConfiguration: {}, files: [{ path: '/etc/kubernetes/audit.yaml', contentFrom: { secret: { name: 'files', key: 'audit.yaml' } } }] };
    await createMachineWithConfig(store, 'w1', { controlPlane: false, spec });
    await runReconcile(kubeadmConfigReconciler, ctx, configKey('w1'));
    const data: StoredObject | undefined = await store.get(secretKey('w1'));
    const raw = Buffer.from(data?.data?.value ?? '', 'base64');
    const doc: unknown = parse(raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw).toString('utf8') : raw.toString('utf8'));
    const files = isRecord(doc) && Array.isArray(doc.write_files) ? doc.write_files.filter(isRecord) : [];
    expect(files.find((f) => f.path === '/etc/kubernetes/audit.yaml')?.content).toBe('kind: Policy\n');
  });
});
