import { afterEach, describe, expect, it } from 'vitest';
import { type EtcdNode, WorkloadClusterAccessDeniedError, WorkloadClusterConflictError, WorkloadClusterUnavailableError, type WorkloadObject } from '../../../shared/ports/workload-cluster.js';
import { WORKLOAD_CLUSTER_IMPLEMENTATIONS, kubeconfigHarness, type WorkloadClusterHarness } from '../../support/workload-cluster-harness.js';
import { generateCertificateAuthority } from '../../../shared/pki/index.js';

/** The WorkloadCluster port's contract, on every implementation. */
const implementations = WORKLOAD_CLUSTER_IMPLEMENTATIONS;

const configMap = (name: string, data: Record<string, string>): WorkloadObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'kube-system' },
  data,
});

const clusterRole: WorkloadObject = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: 'cloud-controller-manager' },
  rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list'] }],
};

let harness: WorkloadClusterHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe.each(implementations)('WorkloadCluster conformance: %s', (_name, start) => {
  it('finds no Node for a providerID nobody registered', async () => {
    harness = await start();
    await harness.addNode('other', true);
    expect(await harness.workload.findNodeByProviderID(harness.cluster, 'aws:///us-east-1a/i-0000000000000dead')).toBeUndefined();
  });

  it.each([
    [true, 'True'],
    [false, 'False'],
  ])('finds the Node by providerID among several (ready %s)', async (ready, status) => {
    harness = await start();
    await harness.addNode('first', true);
    await harness.addNode('second', true);
    const providerID = await harness.addNode('wanted', ready);
    const node = await harness.workload.findNodeByProviderID(harness.cluster, providerID);
    expect(node).toMatchObject({ name: 'wanted', ready, conditions: [expect.objectContaining({ type: 'Ready', status, lastTransitionTime: '2026-01-01T00:00:00Z' })] });
    expect(node?.info?.kubeletVersion).toBe('v1.33.0');
  });

  it.each([
    ['CreateOnly', 'keeps what the first apply wrote', { cni: 'v1' }],
    ['CreateOrUpdate', 'merges the new data into it', { cni: 'v2' }],
  ] as const)('%s: a second apply of a changed object %s', async (mode, _what, expected) => {
    harness = await start();
    expect(await harness.workload.applyObjects(harness.cluster, [configMap('calico', { cni: 'v1' }), clusterRole], { mode })).toEqual([]);
    expect(await harness.applied(clusterRole)).toMatchObject({ rules: clusterRole.rules });
    expect(await harness.workload.applyObjects(harness.cluster, [configMap('calico', { cni: 'v2' })], { mode })).toEqual([]);
    expect(await harness.applied(configMap('calico', {}))).toMatchObject({ data: expected });
  });

  it('applying the same objects twice is a no-op the second time', async () => {
    harness = await start();
    const objects = [configMap('a', { k: '1' }), configMap('b', { k: '2' })];
    for (const mode of ['CreateOnly', 'CreateOrUpdate'] as const) {
      expect(await harness.workload.applyObjects(harness.cluster, objects, { mode })).toEqual([]);
      expect(await harness.workload.applyObjects(harness.cluster, objects, { mode })).toEqual([]);
    }
    expect(await harness.applied(objects[1] ?? configMap('b', {}))).toMatchObject({ data: { k: '2' } });
  });
});

describe.each(implementations)('WorkloadCluster conformance, kube-apiserver certificates: %s', (_name, start) => {
  it("reads when a control-plane Node's kube-apiserver certificate expires", async () => {
    harness = await start();
    const { providerID, certificateNotAfter } = await harness.addControlPlaneNode('cp-1');
    expect(await harness.workload.apiServerCertificateExpiry(harness.cluster, { name: 'cp-1', providerID }, 6443)).toBe(certificateNotAfter);
  });

  it('a Node that runs no kube-apiserver has none', async () => {
    harness = await start();
    const providerID = await harness.addNode('worker-1', true);
    expect(await harness.workload.apiServerCertificateExpiry(harness.cluster, { name: 'worker-1', providerID }, 6443)).toBeUndefined();
  });
});

describe.each(implementations)('WorkloadCluster conformance, etcd members: %s', (_name, start) => {
  it('lists the members through any etcd Node, removes one through another, and removing it again is done', async () => {
    harness = await start();
    const cp1 = { name: 'cp-1', providerID: await harness.addEtcdNode('cp-1') };
    const cp2 = { name: 'cp-2', providerID: await harness.addEtcdNode('cp-2') };
    await harness.addEtcdNode('cp-3');
    const members = (await harness.workload.listEtcdMembers(harness.cluster, cp1)) ?? [];
    expect(members.map((m) => m.name).sort()).toEqual(['cp-1', 'cp-2', 'cp-3']);
    expect(members.every((m) => /^\d+$/.test(m.id))).toBe(true);
    const leaving = members.find((m) => m.name === 'cp-3');
    if (!leaving) throw new Error('no member cp-3');
    await harness.workload.removeEtcdMember(harness.cluster, cp2, leaving.id);
    expect((await harness.workload.listEtcdMembers(harness.cluster, cp1))?.map((m) => m.name).sort()).toEqual(['cp-1', 'cp-2']);
    await harness.workload.removeEtcdMember(harness.cluster, cp1, leaving.id);
    expect((await harness.workload.listEtcdMembers(harness.cluster, cp2))?.map((m) => m.name).sort()).toEqual(['cp-1', 'cp-2']);
  });

  it('a Node that runs no etcd Pod has no members to list, no status, and moves no leadership', async () => {
    harness = await start();
    const cp1 = { name: 'cp-1', providerID: await harness.addEtcdNode('cp-1') };
    const worker = { name: 'worker-1', providerID: await harness.addNode('worker-1', true) };
    expect(await harness.workload.listEtcdMembers(harness.cluster, worker)).toBeUndefined();
    expect(await harness.workload.etcdStatus(harness.cluster, worker)).toBeUndefined();
    const [member] = (await harness.workload.listEtcdMembers(harness.cluster, cp1)) ?? [];
    await expect(harness.workload.moveEtcdLeader(harness.cluster, worker, member?.id ?? '')).rejects.toBeInstanceOf(WorkloadClusterUnavailableError);
  });

  it('lists no alarms on a healthy etcd, then the one raised with its member; none through a Node without etcd', async () => {
    const h = await start();
    harness = h;
    const cp1 = { name: 'cp-1', providerID: await h.addEtcdNode('cp-1') };
    await h.addEtcdNode('cp-2');
    const worker = { name: 'worker-1', providerID: await h.addNode('worker-1', true) };
    const members = (await h.workload.listEtcdMembers(h.cluster, cp1)) ?? [];
    expect(members.every((m) => m.isLearner === undefined)).toBe(true);
    expect(await h.workload.listEtcdAlarms(h.cluster, cp1)).toEqual([]);
    await h.raiseEtcdAlarm('cp-2', 'NOSPACE');
    expect(await h.workload.listEtcdAlarms(h.cluster, cp1)).toEqual([{ memberId: members.find((m) => m.name === 'cp-2')?.id, alarm: 'NOSPACE' }]);
    expect(await h.workload.listEtcdAlarms(h.cluster, worker)).toBeUndefined();
  });

  it('lists a member not yet promoted as a learner', async () => {
    const h = await start();
    harness = h;
    const cp1 = { name: 'cp-1', providerID: await h.addEtcdNode('cp-1') };
    await h.addEtcdNode('cp-2');
    await h.makeEtcdLearner('cp-2');
    const members = (await h.workload.listEtcdMembers(h.cluster, cp1)) ?? [];
    expect(Object.fromEntries(members.map((m) => [m.name, m.isLearner === true]))).toEqual({ 'cp-1': false, 'cp-2': true });
  });

  it('each member reports itself and one leader; only the leader moves leadership, to a member; a removed leader is replaced', async () => {
    const h = await start();
    harness = h;
    const nodes: EtcdNode[] = [];
    for (const name of ['cp-1', 'cp-2', 'cp-3']) nodes.push({ name, providerID: await h.addEtcdNode(name) });
    const members = (await h.workload.listEtcdMembers(h.cluster, { name: 'cp-1', providerID: nodes[0]?.providerID ?? '' })) ?? [];
    const idOf = (name: string) => members.find((m) => m.name === name)?.id ?? '';
    const statuses = await Promise.all(nodes.map((node) => h.workload.etcdStatus(h.cluster, node)));
    expect(statuses.map((s) => s?.memberId)).toEqual(['cp-1', 'cp-2', 'cp-3'].map(idOf));
    const leader = statuses[0]?.leaderId;
    expect(statuses.every((s) => s?.leaderId === leader)).toBe(true);
    const leaderNode = nodes.find((node) => idOf(node.name) === leader);
    const follower = nodes.find((node) => idOf(node.name) !== leader);
    if (!leaderNode || !follower) throw new Error('no leader among the members');
    await expect(h.workload.moveEtcdLeader(h.cluster, follower, idOf(follower.name))).rejects.toThrow(/not leader/);
    await expect(h.workload.moveEtcdLeader(h.cluster, leaderNode, '12345')).rejects.toThrow(/bad leader transferee/);
    await h.workload.moveEtcdLeader(h.cluster, leaderNode, idOf(follower.name));
    expect((await h.workload.etcdStatus(h.cluster, leaderNode))?.leaderId).toBe(idOf(follower.name));
    const other = nodes.find((node) => node !== leaderNode && node !== follower);
    if (!other) throw new Error('no third member');
    await h.workload.removeEtcdMember(h.cluster, other, idOf(follower.name));
    const elected = (await h.workload.etcdStatus(h.cluster, other))?.leaderId;
    expect([idOf(leaderNode.name), idOf(other.name)]).toContain(elected);
  });
});

describe.each(implementations)('WorkloadCluster conformance, static Pods: %s', (_name, start) => {
  it("lists a control-plane Node's kube-apiserver Pod Running and Ready, and none on a worker", async () => {
    const h = await start();
    harness = h;
    const cp = { name: 'cp-1', providerID: (await h.addControlPlaneNode('cp-1')).providerID };
    const worker = { name: 'worker-1', providerID: await h.addNode('worker-1', true) };
    const apiServer = (await h.workload.listStaticPods(h.cluster, cp)).find((pod) => pod.name === 'kube-apiserver-cp-1');
    expect(apiServer?.phase).toBe('Running');
    expect(apiServer?.conditions.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(apiServer?.containers.every((c) => c.waitingReason === undefined && c.terminatedReason === undefined)).toBe(true);
    expect(await h.workload.listStaticPods(h.cluster, worker)).toEqual([]);
  });
});

describe.each(implementations)('WorkloadCluster conformance, ConfigMaps: %s', (_name, start) => {
  const ref = { namespace: 'kube-system', name: 'kubeadm-config' };

  it('reads the data at a resourceVersion, sets keys at it keeping the others, and refuses a stale or missing one', async () => {
    const h = await start();
    harness = h;
    expect(await h.workload.readConfigMap(h.cluster, ref)).toBeUndefined();
    await expect(h.workload.writeConfigMapData(h.cluster, ref, { a: '1' }, '1')).rejects.toBeInstanceOf(WorkloadClusterConflictError);
    expect(await h.workload.applyObjects(h.cluster, [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { ...ref }, data: { ClusterConfiguration: 'kubernetesVersion: v1.31.2\n', other: 'kept' } }], { mode: 'CreateOnly' })).toEqual([]);
    const read = await h.workload.readConfigMap(h.cluster, ref);
    expect(read?.data).toEqual({ ClusterConfiguration: 'kubernetesVersion: v1.31.2\n', other: 'kept' });
    await h.workload.writeConfigMapData(h.cluster, ref, { ClusterConfiguration: 'kubernetesVersion: v1.32.0\n' }, read?.resourceVersion ?? '');
    const written = await h.workload.readConfigMap(h.cluster, ref);
    expect(written?.data).toEqual({ ClusterConfiguration: 'kubernetesVersion: v1.32.0\n', other: 'kept' });
    expect(written?.resourceVersion).not.toBe(read?.resourceVersion);
    await expect(h.workload.writeConfigMapData(h.cluster, ref, { other: 'lost' }, read?.resourceVersion ?? '')).rejects.toBeInstanceOf(WorkloadClusterConflictError);
    expect((await h.workload.readConfigMap(h.cluster, ref))?.data.other).toBe('kept');
  });
});

describe.each(implementations)('WorkloadCluster conformance, container images: %s', (_name, start) => {
  const kubeProxy = { kind: 'DaemonSet', namespace: 'kube-system', name: 'kube-proxy' } as const;
  const daemonSet = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'kube-proxy', namespace: 'kube-system' },
    spec: {
      selector: { matchLabels: { 'k8s-app': 'kube-proxy' } },
      template: {
        metadata: { labels: { 'k8s-app': 'kube-proxy' } },
        spec: {
          containers: [
            { name: 'kube-proxy', image: 'registry.k8s.io/kube-proxy:v1.31.2', command: ['/usr/local/bin/kube-proxy'] },
            { name: 'sidecar', image: 'example.com/sidecar:1' },
          ],
        },
      },
    },
  };

  it('reads a container’s image at a resourceVersion, sets it keeping the other containers and fields, and refuses a stale or missing one', async () => {
    const h = await start();
    harness = h;
    expect(await h.workload.readContainerImage(h.cluster, kubeProxy, 'kube-proxy')).toBeUndefined();
    await expect(h.workload.setContainerImage(h.cluster, kubeProxy, 'kube-proxy', 'registry.k8s.io/kube-proxy:v1.32.0', '1')).rejects.toBeInstanceOf(WorkloadClusterConflictError);
    expect(await h.workload.applyObjects(h.cluster, [daemonSet], { mode: 'CreateOnly' })).toEqual([]);
    expect(await h.workload.readContainerImage(h.cluster, kubeProxy, 'absent')).toBeUndefined();
    const read = await h.workload.readContainerImage(h.cluster, kubeProxy, 'kube-proxy');
    expect(read?.image).toBe('registry.k8s.io/kube-proxy:v1.31.2');
    await h.workload.setContainerImage(h.cluster, kubeProxy, 'kube-proxy', 'registry.k8s.io/kube-proxy:v1.32.0', read?.resourceVersion ?? '');
    const written = await h.workload.readContainerImage(h.cluster, kubeProxy, 'kube-proxy');
    expect(written?.image).toBe('registry.k8s.io/kube-proxy:v1.32.0');
    expect(written?.resourceVersion).not.toBe(read?.resourceVersion);
    expect((await h.workload.readContainerImage(h.cluster, kubeProxy, 'sidecar'))?.image).toBe('example.com/sidecar:1');
    const stored = await h.applied(daemonSet);
    expect(stored).toMatchObject({ spec: { selector: daemonSet.spec.selector, template: { spec: { containers: [{ name: 'kube-proxy', command: ['/usr/local/bin/kube-proxy'] }, { name: 'sidecar' }] } } } });
    await expect(h.workload.setContainerImage(h.cluster, kubeProxy, 'kube-proxy', 'registry.k8s.io/kube-proxy:v1.30.0', read?.resourceVersion ?? '')).rejects.toBeInstanceOf(WorkloadClusterConflictError);
  });
});

describe.each(implementations)('WorkloadCluster conformance, Node patches: %s', (_name, start) => {
  const taint = { key: 'node.cluster.x-k8s.io/uninitialized', effect: 'NoSchedule' };

  it('sets labels, annotations and taints at the version read, removes what is patched to null, and keeps the rest', async () => {
    harness = await start();
    const providerID = await harness.addNode('n', true);
    const first = await harness.workload.findNodeByProviderID(harness.cluster, providerID);
    await harness.workload.patchNode(harness.cluster, 'n', {
      labels: { 'node-role.kubernetes.io/worker': '', keep: 'me' },
      annotations: { 'cluster.x-k8s.io/machine': 'm-1' },
      taints: [taint],
      ...(first?.resourceVersion ? { resourceVersion: first.resourceVersion } : {}),
    });
    const second = await harness.workload.findNodeByProviderID(harness.cluster, providerID);
    expect(second).toMatchObject({ labels: { 'node-role.kubernetes.io/worker': '', keep: 'me' }, annotations: { 'cluster.x-k8s.io/machine': 'm-1' }, taints: [taint] });
    expect(second?.resourceVersion).not.toBe(first?.resourceVersion);

    await harness.workload.patchNode(harness.cluster, 'n', { labels: { 'node-role.kubernetes.io/worker': null }, annotations: {}, taints: [], ...(second?.resourceVersion ? { resourceVersion: second.resourceVersion } : {}) });
    const third = await harness.workload.findNodeByProviderID(harness.cluster, providerID);
    expect(third?.labels).toEqual({ keep: 'me' });
    expect(third?.annotations).toMatchObject({ 'cluster.x-k8s.io/machine': 'm-1' });
    expect(third?.taints).toEqual([]);
  });

  it('refuses a patch at a version the Node has moved past as a conflict, and changes nothing', async () => {
    harness = await start();
    const providerID = await harness.addNode('n', true);
    const read = await harness.workload.findNodeByProviderID(harness.cluster, providerID);
    await harness.workload.patchNode(harness.cluster, 'n', { labels: { a: '1' }, annotations: {}, ...(read?.resourceVersion ? { resourceVersion: read.resourceVersion } : {}) });
    const stale = harness.workload.patchNode(harness.cluster, 'n', { labels: { a: '2' }, annotations: {}, ...(read?.resourceVersion ? { resourceVersion: read.resourceVersion } : {}) });
    await expect(stale).rejects.toBeInstanceOf(WorkloadClusterConflictError);
    expect((await harness.workload.findNodeByProviderID(harness.cluster, providerID))?.labels).toMatchObject({ a: '1' });
  });
});

describe('client-node WorkloadCluster: failures become typed errors', () => {
  it('no kubeconfig Secret yet is a transient "not yet"', async () => {
    harness = await kubeconfigHarness({ withSecret: false });
    const error = await harness.workload.findNodeByProviderID(harness.cluster, 'aws:///us-east-1a/i-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkloadClusterUnavailableError);
    expect(error).toMatchObject({ reason: 'KubeconfigNotFound', message: expect.stringContaining('default/conformance-kubeconfig') });
  });

  it.for([
    ['no etcd CA Secret yet: transient, naming the Secret', 'none', /waiting for Secret default\/conformance-etcd/],
    ['an etcd CA etcd does not trust (its client certificate is refused): transient', 'other', /TLS handshake failed|socket hang up|ECONNRESET|certificate/],
  ] as const)('etcd: %s', async ([, secret, message]) => {
    const h = await kubeconfigHarness();
    harness = h;
    const cp1 = { name: 'cp-1', providerID: await h.addEtcdNode('cp-1') };
    const key = { group: '', kind: 'Secret', namespace: 'default', name: 'conformance-etcd' };
    const current = await h.store.get(key);
    if (!current) throw new Error('no etcd Secret');
    if (secret === 'none') await h.store.delete(key);
    else {
      const other = await generateCertificateAuthority({ now: new Date(), commonName: 'not-etcd', algorithm: 'ECDSA-P256' });
      await h.store.update({ ...current, data: { 'tls.crt': Buffer.from(other.certPem).toString('base64'), 'tls.key': Buffer.from(other.keyPem).toString('base64') } });
    }
    const error = await h.workload.listEtcdMembers(h.cluster, cp1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkloadClusterUnavailableError);
    expect(String((error as Error).message)).toMatch(message);
  });

  it('a kubeconfig Secret that holds no kubeconfig is transient and says so', async () => {
    const h = await kubeconfigHarness();
    harness = h;
    await h.putKubeconfig('{ not: [a kubeconfig');
    const error = await h.workload.findNodeByProviderID(h.cluster, 'aws:///us-east-1a/i-1').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'WorkloadClusterUnavailableError', reason: 'KubeconfigInvalid' });
  });

  it('a rotated kubeconfig is picked up (a client certificate the API does not trust is refused with 401)', async () => {
    const h = await kubeconfigHarness();
    harness = h;
    const providerID = await h.addNode('n', true);
    expect(await h.workload.findNodeByProviderID(h.cluster, providerID)).toMatchObject({ name: 'n' });
    await h.putKubeconfig(h.api.untrustedKubeconfig);
    const error = await h.workload.findNodeByProviderID(h.cluster, providerID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkloadClusterAccessDeniedError);
    expect(error).toMatchObject({ code: 401, reason: 'Unauthorized' });
  });

  it.each([
    [503, WorkloadClusterUnavailableError, { reason: 'ConnectionDown' }],
    [500, WorkloadClusterUnavailableError, { reason: 'ConnectionDown' }],
    [429, WorkloadClusterUnavailableError, { reason: 'ConnectionDown' }],
    [403, WorkloadClusterAccessDeniedError, { code: 403, reason: 'Forbidden' }],
  ])('an API answering %i gives the typed error the reconcilers act on', async (code, type, fields) => {
    const h = await kubeconfigHarness();
    harness = h;
    const providerID = await h.addNode('n', true);
    h.api.failNext(code);
    const error = await h.workload.findNodeByProviderID(h.cluster, providerID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject(fields);
    expect(await h.workload.findNodeByProviderID(h.cluster, providerID)).toMatchObject({ name: 'n' });
  });

  it.each([
    [503, WorkloadClusterUnavailableError, { reason: 'ConnectionDown' }],
    [403, WorkloadClusterAccessDeniedError, { code: 403 }],
  ])('an eviction answered %i (no refusal a drain reports) is the typed error', async (code, type, fields) => {
    const h = await kubeconfigHarness();
    harness = h;
    await h.workload.applyObjects(h.cluster, [{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec: { nodeName: 'n' } }], { mode: 'CreateOnly' });
    h.api.failNext(code);
    const error = await h.workload.evictPod(h.cluster, { namespace: 'default', name: 'p' }, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject(fields);
    expect(h.api.requests).toContain('POST /api/v1/namespaces/default/pods/p/eviction');
  });

  it('a port-forward the API refuses (credentials it does not trust) is access denied', async () => {
    const h = await kubeconfigHarness();
    harness = h;
    const { providerID } = await h.addControlPlaneNode('cp-1');
    await h.putKubeconfig(h.api.untrustedKubeconfig);
    const error = await h.workload.apiServerCertificateExpiry(h.cluster, { name: 'cp-1', providerID }, 6443).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkloadClusterAccessDeniedError);
    expect(h.api.requests).toContain('GET /api/v1/namespaces/kube-system/pods/kube-apiserver-cp-1/portforward');
  });

  it('reads the volumes a Node reports attached', async () => {
    const h = await kubeconfigHarness();
    harness = h;
    h.api.putNode({ name: 'n', providerID: 'aws:///us-east-1a/i-0000000000000000a', ready: true, volumesAttached: ['kubernetes.io/csi/ebs.csi.aws.com^vol-1'] });
    expect(await h.workload.findNodeByProviderID(h.cluster, 'aws:///us-east-1a/i-0000000000000000a')).toMatchObject({ volumesAttached: ['kubernetes.io/csi/ebs.csi.aws.com^vol-1'] });
  });

  it('deletes a Node, and deleting one that is gone again succeeds', async () => {
    const h = await kubeconfigHarness();
    harness = h;
    const providerID = await h.addNode('n', true);
    await h.workload.deleteNode(h.cluster, 'n');
    expect(h.api.requests).toContain('DELETE /api/v1/nodes/n');
    expect(await h.workload.findNodeByProviderID(h.cluster, providerID)).toBeUndefined();
    await expect(h.workload.deleteNode(h.cluster, 'n')).resolves.toBeUndefined();
  });

  it('an API that is gone is a transient ConnectionDown', async () => {
    const h = await kubeconfigHarness();
    harness = h;
    await h.api.close();
    const error = await h.workload.applyObjects(h.cluster, [configMap('x', {})], { mode: 'CreateOnly' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkloadClusterUnavailableError);
    expect(error).toMatchObject({ reason: 'ConnectionDown' });
  });

  it('an object of a kind the cluster does not serve fails alone; the others are applied', async () => {
    const h = await kubeconfigHarness();
    harness = h;
    const unknown: WorkloadObject = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' } };
    const failures = await h.workload.applyObjects(h.cluster, [unknown, configMap('after', { k: 'v' })], { mode: 'CreateOrUpdate' });
    expect(failures).toEqual([{ object: { apiVersion: 'example.com/v1', kind: 'Widget', namespace: 'default', name: 'w' }, message: expect.stringContaining('Widget') }]);
    expect(await h.applied(configMap('after', {}))).toMatchObject({ data: { k: 'v' } });
  });
});
