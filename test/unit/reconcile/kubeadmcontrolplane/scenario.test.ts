import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ANNOTATION_CLONED_FROM_GROUPKIND, ANNOTATION_CLONED_FROM_NAME } from '../../../../functions/reconcile/kubeadm/common/well-known.js';
import { controlPlaneLabels } from '../../../../functions/reconcile/kubeadm/controlplane/machine-factory.js';
import { isRecord, numberAt, recordAt, stringAt, valueAt } from '../../../../shared/contracts/json.js';
import { cpMachines, KCP_KEY, kcp, NS, setSpec, setup } from '../../../support/kcp-converge.js';

describe('KubeadmControlPlane scenario (converge harness, in-memory provider)', () => {
  it('brings 3 replicas up, scales 3→5→3, and rolls a version change one at a time', async () => {
    const { store, run } = await setup(3);
    const first = await run();
    expect(first.errors).toEqual([]);
    const status = (await kcp(store))?.status;
    expect(status).toMatchObject({ replicas: 3, readyReplicas: 3, upToDateReplicas: 3, initialization: { controlPlaneInitialized: true } });
    const machines = await cpMachines(store);
    expect(machines.map((m) => stringAt(m, 'status', 'phase'))).toEqual(['Running', 'Running', 'Running']);

    // The kubeconfig parses and its client certificate chains to the cluster CA.
    const kubeconfigSecret = await store.get({ group: '', kind: 'Secret', namespace: NS, name: 'c1-kubeconfig' });
    const kubeconfig: unknown = parse(Buffer.from(kubeconfigSecret?.data?.value ?? '', 'base64').toString());
    const user = valueAt(kubeconfig, 'users');
    const clientCertB64 = Array.isArray(user) && isRecord(user[0]) ? stringAt(user[0], 'user', 'client-certificate-data') : undefined;
    const caPem = Buffer.from((await store.get({ group: '', kind: 'Secret', namespace: NS, name: 'c1-ca' }))?.data?.['tls.crt'] ?? '', 'base64').toString();
    const client = new X509Certificate(Buffer.from(clientCertB64 ?? '', 'base64'));
    const ca = new X509Certificate(caPem);
    expect(client.checkIssued(ca)).toBe(true);
    expect(client.verify(ca.publicKey)).toBe(true);
    expect(kubeconfigSecret?.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'KubeadmControlPlane', controller: true });

    await setSpec(store, { replicas: 5 });
    expect((await run()).errors).toEqual([]);
    expect((await kcp(store))?.status).toMatchObject({ replicas: 5, readyReplicas: 5 });

    await setSpec(store, { replicas: 3 });
    expect((await run()).errors).toEqual([]);
    expect((await kcp(store))?.status).toMatchObject({ replicas: 3, readyReplicas: 3 });

    await setSpec(store, { version: 'v1.32.0' });
    let minReady = Number.POSITIVE_INFINITY;
    let maxMachines = 0;
    const rollout = await run(async () => {
      const ms = await cpMachines(store);
      const ready = ms.filter((m) => stringAt(m, 'status', 'phase') === 'Running' && m.metadata.deletionTimestamp === undefined).length;
      minReady = Math.min(minReady, ready);
      maxMachines = Math.max(maxMachines, ms.length);
    });
    expect(rollout.errors).toEqual([]);
    const after = await kcp(store);
    expect(after?.status).toMatchObject({ replicas: 3, readyReplicas: 3, upToDateReplicas: 3, version: 'v1.32.0' });
    expect(minReady).toBeGreaterThanOrEqual(3);
    expect(maxMachines).toBe(4);
    expect(numberAt(after, 'status', 'replicas')).toBe(3);

    // Delete: control-plane machines go first, then the finalizer.
    await store.delete(KCP_KEY);
    expect((await run()).errors).toEqual([]);
    expect(await cpMachines(store)).toEqual([]);
    expect(await kcp(store)).toBeUndefined();
  });
  it('changes machineTemplate labels, annotations, taints and the drain timeout in place: no Machine replaced, each carries them', async () => {
    const { store, run } = await setup(3);
    expect((await run()).errors).toEqual([]);
    const before = (await cpMachines(store)).map((m) => m.metadata.name).sort();
    const current = await kcp(store);
    const template = recordAt(current, 'spec', 'machineTemplate') ?? {};
    await setSpec(store, {
      machineTemplate: {
        ...template,
        metadata: { labels: { tier: 'control' }, annotations: { 'example.com/owner': 'platform' } },
        spec: { ...recordAt(template, 'spec'), taints: [{ key: 'role', value: 'cp', effect: 'NoSchedule' }], deletion: { nodeDrainTimeoutSeconds: 300 } },
      },
    });
    expect((await run()).errors).toEqual([]);
    const after = await cpMachines(store);
    expect(after.map((m) => m.metadata.name).sort()).toEqual(before);
    for (const machine of after) {
      expect(machine.metadata.labels).toMatchObject({ tier: 'control', 'cluster.x-k8s.io/control-plane-name': 'cp' });
      expect(machine.metadata.annotations).toMatchObject({ 'example.com/owner': 'platform' });
      expect(machine.spec).toMatchObject({ taints: [{ key: 'role', value: 'cp', effect: 'NoSchedule' }], deletion: { nodeDrainTimeoutSeconds: 300 } });
      // Its InfraMachine and KubeadmConfig too (Cluster API's UpdateExternalObject).
      for (const ref of [recordAt(machine, 'spec', 'infrastructureRef'), recordAt(machine, 'spec', 'bootstrap', 'configRef')]) {
        const part = await store.get({ group: String(ref?.apiGroup), kind: String(ref?.kind), namespace: NS, name: String(ref?.name) });
        expect([part?.kind, part?.metadata.labels?.tier, part?.metadata.labels?.['cluster.x-k8s.io/control-plane-name'], part?.metadata.annotations?.['example.com/owner']]).toEqual([ref?.kind, 'control', 'cp', 'platform']);
      }
    }
    expect((await kcp(store))?.status).toMatchObject({ replicas: 3, upToDateReplicas: 3 });
    expect((await run()).writes).toBe(0);

    // A Machine made now has its parts made with them.
    await setSpec(store, { replicas: 4 });
    expect((await run()).errors).toEqual([]);
    const added = (await cpMachines(store)).find((m) => !before.includes(m.metadata.name));
    for (const ref of [recordAt(added, 'spec', 'infrastructureRef'), recordAt(added, 'spec', 'bootstrap', 'configRef')]) {
      const part = await store.get({ group: String(ref?.apiGroup), kind: String(ref?.kind), namespace: NS, name: String(ref?.name) });
      expect([part?.kind, part?.metadata.labels?.tier, part?.metadata.annotations?.['example.com/owner']]).toEqual([ref?.kind, 'control', 'platform']);
    }
  });

  it.for([
    ["kubeadm's default validity (a year)", undefined, 365],
    ['certificateValidityPeriodDays 90', 90, 90],
  ] as const)("records each Machine's kube-apiserver certificate expiry (%s), and with rollout.before.certificatesExpiryDays replaces a Machine 21 days before it", async ([, validity, days], context) => {
    const { store, run, clock } = await setup(1);
    if (validity) {
      const current = await kcp(store);
      const configSpec = recordAt(current, 'spec', 'kubeadmConfigSpec') ?? {};
      await setSpec(store, { kubeadmConfigSpec: { ...configSpec, clusterConfiguration: { ...recordAt(configSpec, 'clusterConfiguration'), certificateValidityPeriodDays: validity } } });
    }
    context.expect((await run()).errors).toEqual([]);
    const [first] = await cpMachines(store);
    const expiry = stringAt(first, 'status', 'certificatesExpiryDate') ?? '';
    // The simulated kubeadm issued the certificate with the Node, valid for that long.
    context.expect(Math.round((Date.parse(expiry) - Date.parse(first?.metadata.creationTimestamp ?? '')) / 86_400_000)).toBe(days);
    const configName = stringAt(first, 'spec', 'bootstrap', 'configRef', 'name') ?? '';
    const config = await store.get({ group: 'bootstrap.cluster.x-k8s.io', kind: 'KubeadmConfig', namespace: NS, name: configName });
    context.expect(config?.metadata.annotations?.['machine.cluster.x-k8s.io/certificates-expiry']).toBe(expiry);
    // Without certificatesExpiryDays nothing waits on it: a second run writes nothing.
    context.expect((await run()).writes).toBe(0);

    await setSpec(store, { rollout: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } }, before: { certificatesExpiryDays: 21 } } });
    const replacedAt: number[] = [];
    const names = new Set([first?.metadata.name]);
    await run(async () => {
      for (const machine of await cpMachines(store)) {
        if (!names.has(machine.metadata.name)) {
          names.add(machine.metadata.name);
          replacedAt.push(clock.now().getTime());
        }
      }
    });
    // The first replacement came once the certificate was within 21 days of expiring, and before it expired.
    context.expect(replacedAt.length).toBeGreaterThan(0);
    context.expect(replacedAt[0]).toBeGreaterThanOrEqual(Date.parse(expiry) - 21 * 86_400_000);
    context.expect(replacedAt[0]).toBeLessThan(Date.parse(expiry));
    context.expect(await store.get({ group: 'cluster.x-k8s.io', kind: 'Machine', namespace: NS, name: first?.metadata.name ?? '' })).toBeUndefined();
  });

  it('deletes stale parts a crash left behind (no Machine names them, and they are not what it would build now) before it creates a Machine', async () => {
    const { store, run } = await setup(1);
    const owner = await kcp(store);
    if (!owner) throw new Error('kcp missing');
    const controller = { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, controller: true };
    const labels = { 'cluster.x-k8s.io/cluster-name': 'c1', 'cluster.x-k8s.io/control-plane': '' };
    await store.create({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'InMemoryMachine',
      metadata: { name: 'cp-crashed', namespace: NS, labels, ownerReferences: [controller] },
      spec: { startupSeconds: 0 },
    });
    await store.create({
      apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2',
      kind: 'KubeadmConfig',
      metadata: { name: 'cp-crashed', namespace: NS, labels, ownerReferences: [controller] },
      spec: { format: 'cloud-config' },
    });
    expect((await run()).errors).toEqual([]);
    const [machine, ...others] = await cpMachines(store);
    expect(others).toEqual([]);
    for (const kind of ['InMemoryMachine', 'KubeadmConfig']) {
      const group = kind === 'KubeadmConfig' ? 'bootstrap.cluster.x-k8s.io' : 'infrastructure.cluster.x-k8s.io';
      const { items } = await store.list({ group, kind, namespace: NS });
      expect(items.map((o) => o.metadata.name)).toEqual([machine?.metadata.name]);
    }
  });
  it('finishes a creation a crash interrupted: the InfraMachine it wrote is used, under its name', async () => {
    const { store, run } = await setup(1);
    const owner = await kcp(store);
    if (!owner) throw new Error('kcp missing');
    const controller = { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, controller: true };
    const interrupted = await store.create({
      apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
      kind: 'InMemoryMachine',
      metadata: {
        name: 'cp-interrupted',
        namespace: NS,
        labels: controlPlaneLabels('c1', 'cp'),
        // As the KubeadmControlPlane writes it: cloned from the machine template.
        annotations: { [ANNOTATION_CLONED_FROM_NAME]: 'tpl', [ANNOTATION_CLONED_FROM_GROUPKIND]: 'InMemoryMachineTemplate.infrastructure.cluster.x-k8s.io' },
        ownerReferences: [controller],
      },
      spec: { startupSeconds: 0 },
    });
    expect((await run()).errors).toEqual([]);
    const machines = await cpMachines(store);
    expect(machines.map((m) => m.metadata.name)).toEqual(['cp-interrupted']);
    const infra = await store.get({ group: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachine', namespace: NS, name: 'cp-interrupted' });
    expect(infra?.metadata.uid).toBe(interrupted.metadata.uid);
  });
});
