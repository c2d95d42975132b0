import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { isRecord } from '../../../shared/contracts/json.js';
import {
  fillJoinDiscovery,
  goDuration,
  kubeadmApiVersion,
  renderInitDocuments,
  renderJoinDocument,
} from '../../../shared/kubeadm/index.js';
import { cluster, spec } from './fixtures.js';

function record(text: string): Record<string, unknown> {
  const value: unknown = parse(text);
  if (!isRecord(value)) throw new Error(`not a mapping: ${text}`);
  return value;
}

describe('kubeadmApiVersion', () => {
  it.each([
    ['v1.22.0', 'kubeadm.k8s.io/v1beta3'],
    ['v1.29.4', 'kubeadm.k8s.io/v1beta3'],
    ['1.30.0', 'kubeadm.k8s.io/v1beta3'],
    ['v1.31.0-rc.1', 'kubeadm.k8s.io/v1beta4'],
    ['v1.31.0', 'kubeadm.k8s.io/v1beta4'],
    ['v1.32.1+build.5', 'kubeadm.k8s.io/v1beta4'],
  ])('%s → %s', (version, expected) => {
    expect(kubeadmApiVersion(version)).toBe(expected);
  });

  it.each(['v1.21.9', 'v1.22', 'latest', 'v2.0.0'])('rejects %s', (version) => {
    expect(() => kubeadmApiVersion(version)).toThrow(/Kubernetes version/);
  });
});

describe('goDuration', () => {
  it.each([
    [0, '0s'],
    [30, '30s'],
    [120, '2m0s'],
    [300, '5m0s'],
    [3661, '1h1m1s'],
    [365 * 86_400, '8760h0m0s'],
  ])('%d s → %s', (seconds, text) => {
    expect(goDuration(seconds)).toBe(text);
  });
});

describe('renderInitDocuments', () => {
  it('empty v1beta4 ClusterConfiguration: sorted keys, {} for empty structs, proxy present', () => {
    const docs = renderInitDocuments({ spec: {}, cluster: { name: 'mycluster' }, kubernetesVersion: 'v1.31.0' });
    expect(docs.clusterConfiguration).toBe(
      [
        'apiServer: {}',
        'apiVersion: kubeadm.k8s.io/v1beta4',
        'clusterName: mycluster',
        'controllerManager: {}',
        'dns: {}',
        'etcd: {}',
        'kind: ClusterConfiguration',
        'kubernetesVersion: v1.31.0',
        'networking: {}',
        'proxy: {}',
        'scheduler: {}',
        '',
      ].join('\n'),
    );
    expect(docs.initConfiguration).toBe(
      [
        'apiVersion: kubeadm.k8s.io/v1beta4',
        'kind: InitConfiguration',
        'localAPIEndpoint: {}',
        'nodeRegistration:',
        '  taints: null',
        '',
      ].join('\n'),
    );
  });

  it.each([
    ['v1.29.0', 'kubeadm.k8s.io/v1beta3'],
    ['v1.31.2', 'kubeadm.k8s.io/v1beta4'],
    ['v1.32.0', 'kubeadm.k8s.io/v1beta4'],
  ])('%s: fields from the Cluster and the spec in %s shapes', (kubernetesVersion, apiVersion) => {
    const docs = renderInitDocuments({ spec, cluster, kubernetesVersion });
    const v4 = apiVersion.endsWith('v1beta4');
    const cc = record(docs.clusterConfiguration);
    expect(cc).toMatchObject({
      apiVersion,
      kind: 'ClusterConfiguration',
      clusterName: 'demo',
      controlPlaneEndpoint: `${cluster.controlPlaneEndpoint?.host}:6443`,
      kubernetesVersion,
      networking: { dnsDomain: 'cluster.local', podSubnet: '192.168.0.0/16', serviceSubnet: '10.96.0.0/12' },
    });
    expect(cc.apiServer).toEqual(
      v4
        ? { extraArgs: [{ name: 'cloud-provider', value: 'external' }] }
        : { extraArgs: { 'cloud-provider': 'external' }, timeoutForControlPlane: '5m0s' },
    );
    expect('proxy' in cc).toBe(v4);
    const init = record(docs.initConfiguration);
    expect(init).toMatchObject({ apiVersion, kind: 'InitConfiguration', localAPIEndpoint: {} });
    expect(init.nodeRegistration).toEqual({
      name: '{{ ds.meta_data.local_hostname }}',
      kubeletExtraArgs: v4 ? [{ name: 'cloud-provider', value: 'external' }] : { 'cloud-provider': 'external' },
      taints: null,
    });
    expect(init.timeouts).toEqual(v4 ? { controlPlaneComponentHealthCheck: '5m0s' } : undefined);
  });

  it('brackets an IPv6 endpoint and joins several CIDR blocks with commas', () => {
    const docs = renderInitDocuments({
      spec: {},
      cluster: {
        name: 'v6',
        controlPlaneEndpoint: { host: 'fd00::10', port: 6443 },
        clusterNetwork: { pods: { cidrBlocks: ['10.244.0.0/16', 'fd01::/48'] } },
      },
      kubernetesVersion: 'v1.31.0',
    });
    expect(record(docs.clusterConfiguration)).toMatchObject({
      controlPlaneEndpoint: '[fd00::10]:6443',
      networking: { podSubnet: '10.244.0.0/16,fd01::/48' },
    });
  });

  it('keeps an explicit empty taint list (no taints) apart from unset (kubeadm default)', () => {
    const docs = renderInitDocuments({
      spec: { initConfiguration: { nodeRegistration: { taints: [] } } },
      cluster: { name: 'c' },
      kubernetesVersion: 'v1.31.0',
    });
    expect(docs.initConfiguration).toContain('taints: []');
  });
});

describe('renderJoinDocument and fillJoinDiscovery', () => {
  const caCertPem = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';

  it('fills endpoint, token and hashes only where empty, and says whether the token is new', () => {
    const filled = fillJoinDiscovery({
      joinConfiguration: { discovery: { bootstrapToken: { caCertHashes: ['sha256:aa'] } } },
      cluster,
      caCertPem,
      newToken: 'abcdef.0123456789abcdef',
    });
    expect(filled.changed).toBe(true);
    expect(filled.tokenCreated).toBe(true);
    expect(filled.joinConfiguration.discovery?.bootstrapToken).toEqual({
      caCertHashes: ['sha256:aa'],
      apiServerEndpoint: `${cluster.controlPlaneEndpoint?.host}:6443`,
      token: 'abcdef.0123456789abcdef',
    });
    const again = fillJoinDiscovery({
      joinConfiguration: filled.joinConfiguration,
      cluster,
      caCertPem,
      newToken: 'zzzzzz.zzzzzzzzzzzzzzzz',
    });
    expect(again).toEqual({ joinConfiguration: filled.joinConfiguration, changed: false, tokenCreated: false });
  });

  it('skips CA verification only when there is no CA, and waits for the Cluster endpoint', () => {
    const noCa = fillJoinDiscovery({ joinConfiguration: undefined, cluster, newToken: 'abcdef.0123456789abcdef' });
    expect(noCa.joinConfiguration.discovery?.bootstrapToken?.unsafeSkipCAVerification).toBe(true);
    expect(() =>
      fillJoinDiscovery({ joinConfiguration: undefined, cluster: { name: 'pending' }, newToken: 'abcdef.0123456789abcdef' }),
    ).toThrow(/control-plane endpoint/);
  });

  it('leaves file discovery alone', () => {
    const join = { discovery: { file: { kubeConfigPath: '/etc/kubernetes/discovery.conf' } } };
    const result = fillJoinDiscovery({ joinConfiguration: join, cluster, newToken: 'abcdef.0123456789abcdef' });
    expect(result.joinConfiguration).toEqual(join);
    expect(result.changed).toBe(false);
  });

  const discovered = {
    nodeRegistration: { taints: [{ key: 'dedicated', value: 'infra', effect: 'NoSchedule' }] },
    discovery: { bootstrapToken: { apiServerEndpoint: 'api:6443', token: 'abcdef.0123456789abcdef', caCertHashes: ['sha256:aa'] } },
    timeouts: { tlsBootstrapSeconds: 90 },
  };

  it.each([
    ['v1.29.0', 'kubeadm.k8s.io/v1beta3'],
    ['v1.31.0', 'kubeadm.k8s.io/v1beta4'],
    ['v1.32.3', 'kubeadm.k8s.io/v1beta4'],
  ])('%s: a worker gets the uninitialized taint appended, no controlPlane (%s)', (kubernetesVersion, apiVersion) => {
    const doc = record(renderJoinDocument({ spec: { joinConfiguration: discovered }, role: 'worker', kubernetesVersion }).joinConfiguration);
    const v4 = apiVersion.endsWith('v1beta4');
    expect(doc).toMatchObject({ apiVersion, kind: 'JoinConfiguration' });
    expect(doc.controlPlane).toBeUndefined();
    expect(doc.nodeRegistration).toEqual({
      taints: [
        { key: 'dedicated', value: 'infra', effect: 'NoSchedule' },
        { key: 'node.cluster.x-k8s.io/uninitialized', effect: 'NoSchedule' },
      ],
    });
    expect(doc.discovery).toEqual({
      bootstrapToken: { apiServerEndpoint: 'api:6443', token: 'abcdef.0123456789abcdef', caCertHashes: ['sha256:aa'] },
      ...(v4 ? {} : { timeout: '1m30s' }),
    });
    expect(doc.timeouts).toEqual(v4 ? { tlsBootstrap: '1m30s' } : undefined);
  });

  it('a control-plane join gets controlPlane.localAPIEndpoint {} and keeps taints unset as null', () => {
    const text = renderJoinDocument({
      spec: { joinConfiguration: { discovery: discovered.discovery } },
      role: 'controlPlane',
      kubernetesVersion: 'v1.31.0',
    }).joinConfiguration;
    expect(text).toContain('controlPlane:\n  localAPIEndpoint: {}\n');
    expect(text).toContain('taints: null');
  });

  it('a worker with joinConfiguration.controlPlane is an error', () => {
    expect(() =>
      renderJoinDocument({ spec: { joinConfiguration: { controlPlane: {} } }, role: 'worker', kubernetesVersion: 'v1.31.0' }),
    ).toThrow(/only allowed for control-plane/);
  });
});
