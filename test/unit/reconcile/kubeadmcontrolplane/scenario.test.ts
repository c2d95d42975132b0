import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { builtinProviderRegistry } from '../../../../functions/reconcile/engine/providers/builtin.js';
import { isRecord, numberAt, recordAt, stringAt, valueAt } from '../../../../shared/contracts/json.js';
import { isDeleting, type StoredObject } from '../../../../shared/contracts/object.js';
import { toKubeadmYaml } from '../../../../shared/kubeadm/index.js';
import { type EtcdMember, type EtcdNode, WORKLOAD_CLUSTER_PORT, type WorkloadCluster, type WorkloadClusterRef } from '../../../../shared/ports/workload-cluster.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';
import { InMemoryWorkloadCluster } from '../../../../shared/workload-cluster/in-memory-workload-cluster.js';
import { converge } from '../../../support/converge.js';
import { ANNOTATION_CLONED_FROM_GROUPKIND, ANNOTATION_CLONED_FROM_NAME } from '../../../../functions/reconcile/kubeadm/common/well-known.js';
import { controlPlaneLabels } from '../../../../functions/reconcile/kubeadm/controlplane/machine-factory.js';
import { KCP_PRE_TERMINATE_HOOK } from '../../../../functions/reconcile/kubeadm/controlplane/pre-terminate-hook.js';
import { simulatedMemberId } from '../../../../shared/workload-cluster/in-memory-etcd.js';
import { FakeClock } from '../../../support/fake-clock.js';

const NS = 'default';
const KCP_KEY = { group: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', namespace: NS, name: 'cp' };

/** A stacked etcd that also lists a member no Machine owns (left by a Machine replaced before ADR 0164), until it is removed. */
const STALE_MEMBER: EtcdMember = { id: '4242', name: 'ip-10-0-0-9.ec2.internal' };
class WithStaleEtcdMember extends InMemoryWorkloadCluster {
  stalePresent = true;
  override readingThrough(): WorkloadCluster {
    return this;
  }
  override async listEtcdMembers(cluster: WorkloadClusterRef, node: EtcdNode): Promise<EtcdMember[] | undefined> {
    const members = await super.listEtcdMembers(cluster, node);
    return members && (this.stalePresent ? [...members, STALE_MEMBER] : members);
  }
  override async removeEtcdMember(cluster: WorkloadClusterRef, node: EtcdNode, memberId: string): Promise<void> {
    if (memberId === STALE_MEMBER.id) this.stalePresent = false;
    else await super.removeEtcdMember(cluster, node, memberId);
  }
}

async function setup(replicas: number, options: { staleEtcdMember?: boolean } = {}) {
  const clock = new FakeClock('2026-03-01T00:00:00Z');
  const store = new MemoryObjectStore({ clock });
  const workload = options.staleEtcdMember ? new WithStaleEtcdMember(store) : new InMemoryWorkloadCluster(store);
  await store.create({
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'InMemoryCluster',
    metadata: { name: 'c1', namespace: NS },
    spec: { controlPlaneEndpoint: { host: '10.0.0.10', port: 6443 } },
  });
  await store.create({
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'InMemoryMachineTemplate',
    metadata: { name: 'tpl', namespace: NS },
    spec: { template: { spec: { startupSeconds: 0 } } },
  });
  await store.create({
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmControlPlane',
    metadata: { name: 'cp', namespace: NS },
    spec: {
      replicas,
      version: 'v1.31.2',
      rollout: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } } },
      machineTemplate: { spec: { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachineTemplate', name: 'tpl' } } },
      kubeadmConfigSpec: { format: 'cloud-config', clusterConfiguration: { encryptionAlgorithm: 'ECDSA-P256' } },
    },
  });
  await store.create({
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'Cluster',
    metadata: { name: 'c1', namespace: NS },
    spec: {
      infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryCluster', name: 'c1' },
      controlPlaneRef: { apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', name: 'cp' },
    },
  });
  const registry = builtinProviderRegistry();
  const run = (afterRound?: () => Promise<void>) =>
    converge(registry, store, { clock, maxRounds: 200, providers: { [WORKLOAD_CLUSTER_PORT]: workload }, ...(afterRound ? { afterRound } : {}) });
  return { store, run, clock, registry, workload };
}

async function kcp(store: MemoryObjectStore): Promise<StoredObject | undefined> {
  return store.get(KCP_KEY);
}

async function cpMachines(store: MemoryObjectStore): Promise<StoredObject[]> {
  const { items } = await store.list({ group: 'cluster.x-k8s.io', kind: 'Machine', namespace: NS });
  return items.filter((m) => m.metadata.labels?.['cluster.x-k8s.io/control-plane'] !== undefined);
}

async function setSpec(store: MemoryObjectStore, patch: Record<string, unknown>): Promise<void> {
  const current = await kcp(store);
  if (!current) throw new Error('kcp missing');
  await store.update({ ...current, spec: { ...current.spec, ...patch } });
}

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
  it('scaling down, removes each deleted Machine’s etcd member through another Node before its infrastructure goes, then lets it go', async () => {
    const { store, run, workload } = await setup(3);
    expect((await run()).errors).toEqual([]);
    const nodeOf = (m: StoredObject | undefined) => ({ name: stringAt(m, 'status', 'nodeRef', 'name') ?? '', providerID: stringAt(m, 'spec', 'providerID') ?? '' });
    const c1 = { namespace: NS, name: 'c1' };
    const before = await cpMachines(store);
    expect(before.map((m) => m.metadata.annotations?.[KCP_PRE_TERMINATE_HOOK])).toEqual(['', '', '']);
    expect((await workload.listEtcdMembers(c1, nodeOf(before[0])))?.map((m) => m.name).sort()).toEqual(before.map((m) => nodeOf(m).name).sort());

    await setSpec(store, { replicas: 1 });
    const violations: string[] = [];
    const stats = await run(async () => {
      const infra = new Set((await store.list({ group: 'infrastructure.cluster.x-k8s.io', kind: 'InMemoryMachine', namespace: NS })).items.map((m) => m.metadata.name));
      for (const machine of before) {
        const member = workload.objects.etcd.members(c1, [nodeOf(machine)]);
        if (!infra.has(machine.metadata.name) && member.length > 0) violations.push(`${machine.metadata.name}: infrastructure gone, etcd member left`);
      }
    });
    expect(stats.errors).toEqual([]);
    expect(violations).toEqual([]);
    const left = await cpMachines(store);
    expect(left).toHaveLength(1);
    expect(await workload.listEtcdMembers(c1, nodeOf(left[0]))).toEqual([{ id: simulatedMemberId(nodeOf(left[0]).providerID), name: nodeOf(left[0]).name }]);
    const gone = before.filter((m) => m.metadata.name !== left[0]?.metadata.name);
    expect(gone.flatMap((m) => workload.objects.etcd.members(c1, [nodeOf(m)]))).toEqual([]);

    // The last one: its deletion (the control plane's) takes the hook off, no member is removed.
    await store.delete(KCP_KEY);
    expect((await run()).errors).toEqual([]);
    expect(await cpMachines(store)).toEqual([]);
    expect(workload.objects.etcd.members(c1, [nodeOf(left[0])])).toHaveLength(1);
  });

  it('removes an etcd member no Machine owns once every Machine has its Node, and keeps the Machines’ members', async () => {
    const { store, run, workload } = await setup(3, { staleEtcdMember: true });
    expect((await run()).errors).toEqual([]);
    expect(workload instanceof WithStaleEtcdMember && workload.stalePresent).toBe(false);
    const machines = await cpMachines(store);
    const [first] = machines;
    if (!first) throw new Error('no control-plane Machine');
    const through = { name: stringAt(first, 'status', 'nodeRef', 'name') ?? '', providerID: stringAt(first, 'spec', 'providerID') ?? '' };
    const members = await workload.listEtcdMembers({ namespace: NS, name: 'c1' }, through);
    expect(members?.map((m) => m.name).sort()).toEqual(machines.map((m) => stringAt(m, 'status', 'nodeRef', 'name')).sort());
  });

  it('in a version rollout, updates the workload cluster’s kubeadm-config and kubeadm’s ClusterRoleBindings before the first new Machine joins', async () => {
    const { store, run, workload } = await setup(3);
    expect((await run()).errors).toEqual([]);
    const c1 = { namespace: NS, name: 'c1' };
    const ref = { namespace: 'kube-system', name: 'kubeadm-config' };
    // What kubeadm init stores in a real cluster (simulated kubeadm writes none).
    const stored = toKubeadmYaml({ apiVersion: 'kubeadm.k8s.io/v1beta4', kind: 'ClusterConfiguration', clusterName: 'c1', kubernetesVersion: 'v1.31.2', networking: { serviceSubnet: '10.96.0.0/12' } });
    expect(await workload.applyObjects(c1, [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { ...ref }, data: { ClusterConfiguration: stored } }], { mode: 'CreateOnly' })).toEqual([]);
    const storedVersion = async () => parse((await workload.readConfigMap(c1, ref))?.data.ClusterConfiguration ?? '').kubernetesVersion;
    expect(await storedVersion()).toBe('v1.31.2');

    await setSpec(store, { version: 'v1.32.0' });
    const violations: string[] = [];
    const stats = await run(async () => {
      const upgraded = (await cpMachines(store)).filter((m) => stringAt(m, 'spec', 'version') === 'v1.32.0');
      if (upgraded.length > 0 && (await storedVersion()) !== 'v1.32.0') violations.push(`${upgraded.length} v1.32.0 Machine(s) while kubeadm-config says ${await storedVersion()}`);
    });
    expect(stats.errors).toEqual([]);
    expect(violations).toEqual([]);
    const after = parse((await workload.readConfigMap(c1, ref))?.data.ClusterConfiguration ?? '');
    expect(after).toMatchObject({ kubernetesVersion: 'v1.32.0', networking: { serviceSubnet: '10.96.0.0/12' }, featureGates: { ControlPlaneKubeletLocalMode: true } });
    const bindings = workload.objects.objectsOf(c1).filter((o) => o.kind === 'ClusterRoleBinding');
    expect(bindings.map((b) => b.metadata.name).sort()).toEqual(['kubeadm:apiserver-kubelet-client', 'kubeadm:cluster-admins']);
  });

  it('once a version rollout is done, re-tags the workload cluster’s kube-proxy with the new version', async () => {
    const { store, run, workload } = await setup(1);
    expect((await run()).errors).toEqual([]);
    const c1 = { namespace: NS, name: 'c1' };
    const kubeProxy = { kind: 'DaemonSet', namespace: 'kube-system', name: 'kube-proxy' } as const;
    const containers = [{ name: 'kube-proxy', image: 'registry.k8s.io/kube-proxy:v1.31.2' }];
    const daemonSet = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'kube-proxy', namespace: 'kube-system' }, spec: { template: { spec: { containers } } } };
    expect(await workload.applyObjects(c1, [daemonSet], { mode: 'CreateOnly' })).toEqual([]);

    await setSpec(store, { version: 'v1.32.0' });
    const imagesDuringRollout = new Set<string>();
    const stats = await run(async () => {
      const machines = await cpMachines(store);
      if (machines.some((m) => stringAt(m, 'spec', 'version') !== 'v1.32.0')) imagesDuringRollout.add((await workload.readContainerImage(c1, kubeProxy, 'kube-proxy'))?.image ?? '');
    });
    expect(stats.errors).toEqual([]);
    expect([...imagesDuringRollout]).toEqual(['registry.k8s.io/kube-proxy:v1.31.2']);
    expect((await workload.readContainerImage(c1, kubeProxy, 'kube-proxy'))?.image).toBe('registry.k8s.io/kube-proxy:v1.32.0');
  });

  it('in a rollout, moves etcd leadership off each Machine before deleting it: a deleting Machine’s member never leads', async () => {
    const { store, run, workload } = await setup(3);
    expect((await run()).errors).toEqual([]);
    const nodeOf = (m: StoredObject) => ({ name: stringAt(m, 'status', 'nodeRef', 'name') ?? '', providerID: stringAt(m, 'spec', 'providerID') ?? '' });
    const c1 = { namespace: NS, name: 'c1' };
    const leaderOf = async (machines: readonly StoredObject[]) => {
      for (const machine of machines.filter((m) => stringAt(m, 'status', 'nodeRef', 'name'))) {
        const status = await workload.etcdStatus(c1, nodeOf(machine));
        const members = await workload.listEtcdMembers(c1, nodeOf(machine));
        if (status && members) return members.find((m) => m.id === status.leaderId)?.name;
      }
      return undefined;
    };
    const before = await cpMachines(store);
    const firstLeader = await leaderOf(before);
    expect(before.map((m) => nodeOf(m).name)).toContain(firstLeader);

    await setSpec(store, { version: 'v1.32.0' });
    const violations: string[] = [];
    const stats = await run(async () => {
      const machines = await cpMachines(store);
      const leader = await leaderOf(machines);
      for (const machine of machines.filter(isDeleting)) if (nodeOf(machine).name === leader) violations.push(`${machine.metadata.name} deleting while its member leads`);
    });
    expect(stats.errors).toEqual([]);
    expect(violations).toEqual([]);
    const after = await cpMachines(store);
    expect(after.map((m) => m.metadata.name).filter((name) => before.some((b) => b.metadata.name === name))).toEqual([]);
    expect(after.map((m) => nodeOf(m).name)).toContain(await leaderOf(after));
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
