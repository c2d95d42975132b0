import { X509Certificate, createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { isRecord, stringAt } from '../../../../shared/contracts/json.js';
import { kubeadmConfigReconciler } from '../../../../functions/reconcile/kubeadm/bootstrap/reconciler.js';
import { runReconcile } from '../../../../functions/reconcile/engine/skeleton/run-reconcile.js';
import type { ObjectKey, StoredObject } from '../../../../shared/contracts/object.js';
import { CountingStore } from '../../../support/counting-store.js';
import {
  CLUSTER,
  NS,
  configKey,
  createCluster,
  createMachineWithConfig,
  newEnv,
  secretKey,
  setStatus,
} from './fixtures.js';

function decodeUserData(secret: StoredObject | undefined): string {
  const raw = Buffer.from(secret?.data?.value ?? '', 'base64');
  return raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
}

interface WriteFile {
  path: string;
  content: string;
}

function writeFiles(text: string): WriteFile[] {
  const doc: unknown = parse(text);
  const files = isRecord(doc) && Array.isArray(doc.write_files) ? doc.write_files : [];
  return files.filter(isRecord).map((f) => ({ path: String(f.path), content: String(f.content ?? '') }));
}

function kubeadmKinds(text: string): string[] {
  const file = writeFiles(text).find((f) => f.path.startsWith('/run/kubeadm/'));
  return parseAllDocuments(file?.content ?? '')
    .map((d) => stringAt(d.toJS(), 'kind'))
    .filter((k): k is string => k !== undefined);
}

function joinDocument(text: string): unknown {
  const file = writeFiles(text).find((f) => f.path === '/run/kubeadm/kubeadm-join-config.yaml');
  return parseAllDocuments(file?.content ?? '')[0]?.toJS();
}

describe('KubeadmConfig reconciler', () => {
  it('gives init data to exactly one of two control-plane machines racing for the lock', async () => {
    const { store, ctx } = newEnv();
    await createCluster(store);
    await createMachineWithConfig(store, 'cp-a', { controlPlane: true });
    await createMachineWithConfig(store, 'cp-b', { controlPlane: true });
    for (let round = 0; round < 8; round++) {
      await Promise.all(['cp-a', 'cp-b'].map((name) => runReconcile(kubeadmConfigReconciler, ctx, configKey(name))));
    }
    const secrets = await Promise.all(['cp-a', 'cp-b'].map((n) => store.get(secretKey(n))));
    const withData = secrets.filter((s) => s !== undefined);
    expect(withData).toHaveLength(1);
    const text = decodeUserData(withData[0]);
    expect(text).toContain('kubeadm init --config /run/kubeadm/kubeadm.yaml');
    const loser = secrets[0] ? 'cp-b' : 'cp-a';
    const winner = loser === 'cp-a' ? 'cp-b' : 'cp-a';
    const loserConfig = await store.get(configKey(loser));
    expect(JSON.stringify(loserConfig?.status?.conditions)).toContain('WaitingForControlPlaneInitialization');
    expect(loserConfig?.status?.initialization).toEqual({ dataSecretCreated: false });
    const lock = await store.get({ group: '', kind: 'ConfigMap', namespace: NS, name: `${CLUSTER}-lock` });
    expect(JSON.parse(lock?.data?.['lock-information'] ?? '{}')).toEqual({ machineName: winner });
  });

  it.each([
    { role: 'init', controlPlane: true, initialized: false, kinds: ['ClusterConfiguration', 'InitConfiguration'], caKey: true },
    { role: 'controlPlaneJoin', controlPlane: true, initialized: true, kinds: ['JoinConfiguration'], caKey: true },
    { role: 'worker', controlPlane: false, initialized: true, kinds: ['JoinConfiguration'], caKey: false },
  ])('renders $role data into a cloud-config Secret', async ({ controlPlane, initialized, kinds, caKey }) => {
    const { store, ctx } = newEnv();
    const cluster = await createCluster(store, { initialized: false });
    if (initialized) {
      // Certificates exist once the control plane is initialized: let an init machine create them.
      await createMachineWithConfig(store, 'first', { controlPlane: true });
      await runReconcile(kubeadmConfigReconciler, ctx, configKey('first'));
      await setStatus(store, cluster, { initialization: { infrastructureProvisioned: true, controlPlaneInitialized: true } });
    }
    const { config } = await createMachineWithConfig(store, 'm1', { controlPlane });
    await runReconcile(kubeadmConfigReconciler, ctx, configKey('m1'));

    const secret = await store.get(secretKey('m1'));
    expect(secret?.type).toBe('cluster.x-k8s.io/secret');
    expect(secret?.metadata.labels?.['cluster.x-k8s.io/cluster-name']).toBe(CLUSTER);
    expect(secret?.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'KubeadmConfig', uid: config.metadata.uid, controller: true });
    expect(Buffer.from(secret?.data?.format ?? '', 'base64').toString()).toBe('cloud-config');
    const text = decodeUserData(secret);
    expect(text.startsWith('## template: jinja\n#cloud-config\n')).toBe(true);
    expect(kubeadmKinds(text)).toEqual(kinds);
    expect(writeFiles(text).some((f) => f.path === '/etc/kubernetes/pki/ca.key')).toBe(caKey);

    const updated = await store.get(configKey('m1'));
    expect(updated?.status).toMatchObject({ initialization: { dataSecretCreated: true }, dataSecretName: 'm1' });
  });

  it('worker discovery carries the CA hash and the recorded token', async () => {
    const { store, ctx } = newEnv();
    const cluster = await createCluster(store);
    await createMachineWithConfig(store, 'first', { controlPlane: true });
    await runReconcile(kubeadmConfigReconciler, ctx, configKey('first'));
    await setStatus(store, cluster, { initialization: { infrastructureProvisioned: true, controlPlaneInitialized: true } });
    await createMachineWithConfig(store, 'w1', { controlPlane: false });
    await runReconcile(kubeadmConfigReconciler, ctx, configKey('w1'));

    const ca = Buffer.from((await store.get(secretKey(`${CLUSTER}-ca`)))?.data?.['tls.crt'] ?? '', 'base64').toString();
    const spki = new X509Certificate(ca).publicKey.export({ type: 'spki', format: 'der' });
    const expectedHash = `sha256:${createHash('sha256').update(spki).digest('hex')}`;
    const tokenSecret = await store.get(secretKey('w1-token'));
    const token = ['token-id', 'token-secret'].map((k) => Buffer.from(tokenSecret?.data?.[k] ?? '', 'base64').toString()).join('.');

    const join = joinDocument(decodeUserData(await store.get(secretKey('w1'))));
    expect(stringAt(join, 'discovery', 'bootstrapToken', 'token')).toBe(token);
    expect(stringAt(join, 'discovery', 'bootstrapToken', 'apiServerEndpoint')).toBe('10.0.0.10:6443');
    expect(JSON.stringify(isRecord(join) ? join.discovery : undefined)).toContain(expectedHash);
    expect(tokenSecret?.type).toBe('bootstrap.kubernetes.io/token');
  });

  it.each([
    { name: 'infrastructure not provisioned', cluster: { provisioned: false }, controlPlane: true, reason: 'WaitingForInfrastructure', requeue: undefined },
    { name: 'worker before init', cluster: {}, controlPlane: false, reason: 'WaitingForControlPlaneInitialization', requeue: 30 },
    { name: 'KCP cluster without certificates', cluster: { controlPlaneRef: true }, controlPlane: true, reason: 'WaitingForCertificates', requeue: 10 },
  ])('waits: $name', async ({ cluster, controlPlane, reason, requeue }) => {
    const { store, ctx } = newEnv();
    await createCluster(store, cluster);
    await createMachineWithConfig(store, 'm1', { controlPlane });
    const result = await runReconcile(kubeadmConfigReconciler, ctx, configKey('m1'));
    expect(result.requeueAfterSeconds).toBe(requeue);
    expect(await store.get(secretKey('m1'))).toBeUndefined();
    const config = await store.get(configKey('m1'));
    const conditions = Array.isArray(config?.status?.conditions) ? config.status.conditions : [];
    expect(conditions).toContainEqual(expect.objectContaining({ type: 'DataSecretAvailable', status: 'False', reason }));
  });

  it.each([
    { name: 'an owner Machine', owner: false, cluster: {}, controlPlane: true, reason: 'WaitingForOwner' },
    { name: 'infrastructure', owner: true, cluster: { provisioned: false }, controlPlane: true, reason: 'WaitingForInfrastructure' },
    { name: 'the control plane (a worker)', owner: true, cluster: {}, controlPlane: false, reason: 'WaitingForControlPlaneInitialization' },
    { name: 'certificates', owner: true, cluster: { controlPlaneRef: true }, controlPlane: true, reason: 'WaitingForCertificates' },
  ])('reads no data Secret while it waits for $name', async ({ owner, cluster, controlPlane, reason }) => {
    const { store, ctx } = newEnv();
    await createCluster(store, cluster);
    const { config } = await createMachineWithConfig(store, 'm1', { controlPlane });
    if (!owner) await store.update({ ...config, metadata: { ...config.metadata, ownerReferences: [] } });
    const get = vi.spyOn(store, 'get');
    await runReconcile(kubeadmConfigReconciler, ctx, configKey('m1'));
    expect(get.mock.calls.map(([key]) => key)).not.toContainEqual(secretKey('m1'));
    expect(JSON.stringify((await store.get(configKey('m1')))?.status?.conditions)).toContain(reason);
  });

  it('once its status names the data Secret, reads only itself, its Cluster (for a pause) and the Secret', async () => {
    const { store, ctx } = newEnv();
    await createCluster(store);
    await createMachineWithConfig(store, 'cp-a', { controlPlane: true });
    await runReconcile(kubeadmConfigReconciler, ctx, configKey('cp-a'));
    expect((await store.get(configKey('cp-a')))?.status?.dataSecretName).toBe('cp-a');
    const get = vi.spyOn(store, 'get');
    const list = vi.spyOn(store, 'listByCluster');
    await runReconcile(kubeadmConfigReconciler, ctx, configKey('cp-a'));
    expect(get.mock.calls.map(([key]: [ObjectKey]) => key.kind)).toEqual(['KubeadmConfig', 'Cluster', 'Secret']);
    expect(list).not.toHaveBeenCalled();
  });

  it.each([
    { name: 'an init Machine gives up the init lock', controlPlane: true, initialized: false },
    { name: 'a worker', controlPlane: false, initialized: true },
  ])('reports a Secret of its name that it does not control as DataSecretConflict, untouched: $name', async ({ controlPlane, initialized }) => {
    const { store, ctx } = newEnv();
    const cluster = await createCluster(store);
    if (initialized) {
      await createMachineWithConfig(store, 'cp-init', { controlPlane: true });
      await runReconcile(kubeadmConfigReconciler, ctx, configKey('cp-init'));
      await setStatus(store, cluster, { initialization: { infrastructureProvisioned: true, controlPlaneInitialized: true } });
    }
    const foreign = await store.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'm1', namespace: NS }, data: { value: 'bm90IG1pbmU=' } });
    await createMachineWithConfig(store, 'm1', { controlPlane });
    await runReconcile(kubeadmConfigReconciler, ctx, configKey('m1'));
    const config = await store.get(configKey('m1'));
    expect(JSON.stringify(config?.status?.conditions)).toContain('DataSecretConflict');
    expect(config?.status?.dataSecretName).toBeUndefined();
    expect((await store.get(secretKey('m1')))?.metadata.resourceVersion).toBe(foreign.metadata.resourceVersion);
    const lock = await store.get({ group: '', kind: 'ConfigMap', namespace: NS, name: `${CLUSTER}-lock` });
    expect(lock?.data?.['lock-information'] ?? '').not.toContain('"m1"');
  });

  it('waits for an owner Machine', async () => {
    const { store, ctx } = newEnv();
    await store.create({ apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfig', metadata: { name: 'lonely', namespace: NS }, spec: {} });
    await runReconcile(kubeadmConfigReconciler, ctx, configKey('lonely'));
    const config = await store.get(configKey('lonely'));
    expect(JSON.stringify(config?.status?.conditions)).toContain('WaitingForOwner');
  });

  it('is idempotent: a second run writes nothing and never re-renders', async () => {
    const { store, ctx } = newEnv();
    await createCluster(store);
    await createMachineWithConfig(store, 'cp-a', { controlPlane: true });
    await runReconcile(kubeadmConfigReconciler, ctx, configKey('cp-a'));
    const before = await store.get(secretKey('cp-a'));
    const counting = new CountingStore(store);
    await runReconcile(kubeadmConfigReconciler, { ...ctx, store: counting }, configKey('cp-a'));
    expect(counting.counts.writes).toBe(0);
    expect((await store.get(secretKey('cp-a')))?.metadata.resourceVersion).toBe(before?.metadata.resourceVersion);
  });

  it('releases a lock whose holder Machine is gone, and a later try wins', async () => {
    const { store, ctx } = newEnv();
    const cluster = await createCluster(store);
    await store.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `${CLUSTER}-lock`, namespace: NS },
      data: { 'lock-information': JSON.stringify({ machineName: 'gone' }) },
    });
    await createMachineWithConfig(store, 'cp-a', { controlPlane: true });
    const first = await runReconcile(kubeadmConfigReconciler, ctx, configKey('cp-a'));
    expect(first.requeueAfterSeconds).toBe(30);
    expect(await store.get({ group: '', kind: 'ConfigMap', namespace: NS, name: `${CLUSTER}-lock` })).toBeUndefined();
    await runReconcile(kubeadmConfigReconciler, ctx, configKey('cp-a'));
    expect(decodeUserData(await store.get(secretKey('cp-a')))).toContain('kubeadm init');
    expect(cluster.metadata.name).toBe(CLUSTER);
  });
  it('keeps the init lock when the data Secret write landed but was reported failed: the holder re-enters, the other Machine never inits', async () => {
    const { store, ctx } = newEnv();
    await createCluster(store);
    await createMachineWithConfig(store, 'cp-a', { controlPlane: true });
    await createMachineWithConfig(store, 'cp-b', { controlPlane: true });
    // The first write of cp-a's data Secret lands, and its answer is lost (a crash after the write).
    let lost = false;
    const lossy = Object.create(store, {
      create: {
        value: async (object: Parameters<typeof store.create>[0]) => {
          const created = await store.create(object);
          if (!lost && object.kind === 'Secret' && object.metadata.name === 'cp-a') {
            lost = true;
            throw new Error('connection reset after the write');
          }
          return created;
        },
      },
    });
    await expect(runReconcile(kubeadmConfigReconciler, { ...ctx, store: lossy }, configKey('cp-a'))).rejects.toThrow('connection reset');
    expect(lost).toBe(true);
    const lockKey = { group: '', kind: 'ConfigMap', namespace: NS, name: `${CLUSTER}-lock` };
    expect(JSON.parse((await store.get(lockKey))?.data?.['lock-information'] ?? '{}')).toEqual({ machineName: 'cp-a' });
    await runReconcile(kubeadmConfigReconciler, ctx, configKey('cp-b'));
    expect(await store.get(secretKey('cp-b'))).toBeUndefined();
    await runReconcile(kubeadmConfigReconciler, ctx, configKey('cp-a'));
    expect(decodeUserData(await store.get(secretKey('cp-a')))).toContain('kubeadm init');
  });
});
