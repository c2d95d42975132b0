import { describe, expect, it } from 'vitest';
import {
  type KcpConditionInputs,
  compareVersions,
  kcpConditions,
  kcpStatus,
} from '../../../../functions/reconcile/kubeadm/controlplane/status.js';
import { fact } from './facts.js';

describe('kcpStatus', () => {
  it.each([
    {
      name: 'no machines',
      machines: [],
      initialized: false,
      expected: { replicas: 0, readyReplicas: 0, availableReplicas: 0, upToDateReplicas: 0 },
      absent: 'initialization',
    },
    {
      name: 'three ready',
      machines: [fact('m1'), fact('m2'), fact('m3')],
      initialized: true,
      expected: { replicas: 3, readyReplicas: 3, upToDateReplicas: 3, version: 'v1.31.0', initialization: { controlPlaneInitialized: true } },
    },
    {
      name: 'mid rollout: lowest version, outdated not counted',
      machines: [fact('m1', { version: 'v1.30.4', upToDate: false }), fact('m2', { version: 'v1.31.0' }), fact('m3', { ready: false, version: 'v1.31.0' })],
      initialized: true,
      expected: { replicas: 3, readyReplicas: 2, availableReplicas: 2, upToDateReplicas: 2, version: 'v1.30.4' },
    },
  ])('$name', ({ machines, initialized, expected, absent }: { machines: ReturnType<typeof fact>[]; initialized: boolean; expected: object; absent?: string }) => {
    const { fields } = kcpStatus({ clusterName: 'c1', machines, initialized });
    expect(fields).toMatchObject({ ...expected, selector: 'cluster.x-k8s.io/cluster-name=c1,cluster.x-k8s.io/control-plane' });
    // Cluster API writes `initialization.controlPlaneInitialized` only once it is true.
    if (absent) expect(fields).not.toHaveProperty(absent);
  });
});

describe('compareVersions', () => {
  it.each([
    { a: 'v1.30.4', b: 'v1.31.0', sign: -1 },
    { a: 'v1.31.10', b: 'v1.31.9', sign: 1 },
    { a: 'v1.31.0', b: '1.31.0', sign: 0 },
    { a: 'v1.31.0-rc.1', b: 'v1.31.0', sign: 0 },
  ])('$a vs $b', ({ a, b, sign }) => {
    expect(Math.sign(compareVersions(a, b))).toBe(sign);
  });
});

const baseConditions: KcpConditionInputs = {
  replicas: 3,
  initialized: true,
  machines: [fact('m1'), fact('m2'), fact('m3')],
  missingCertificates: [],
  skips: { coreDNS: false, kubeProxy: false },
  now: new Date('2026-03-01T00:10:00Z'),
  health: {
    machines: ['n1', 'n2', 'n3'].map((nodeName) => ({ provisioned: true, nodeName, componentsHealthy: true, etcdMemberHealthy: true })),
    etcd: { matching: true, members: ['n1', 'n2', 'n3'].map((name, i) => ({ id: String(i + 1), name })) },
  },
};

describe('kcpConditions', () => {
  it.each([
    { name: 'steady state', inputs: {}, type: 'Available', status: 'True', reason: 'Available' },
    { name: 'not initialized', inputs: { initialized: false }, type: 'Initialized', status: 'False', reason: 'NotInitialized' },
    { name: 'not initialized → not available', inputs: { initialized: false }, type: 'Available', status: 'False', reason: 'NotAvailable' },
    { name: 'certificates missing', inputs: { missingCertificates: ['c1-etcd'] }, type: 'CertificatesAvailable', status: 'False', reason: 'CertificatesMissing' },
    { name: 'machine not ready', inputs: { machines: [fact('m1'), fact('m2', { ready: false })] }, type: 'MachinesReady', status: 'False', reason: 'NotReady' },
    { name: 'scaling up', inputs: { machines: [fact('m1')] }, type: 'ScalingUp', status: 'True', reason: 'ScalingUp' },
    { name: 'scaling down', inputs: { replicas: 1 }, type: 'ScalingDown', status: 'True', reason: 'ScalingDown' },
    { name: 'rolling out', inputs: { machines: [fact('m1', { upToDate: false })] }, type: 'RollingOut', status: 'True', reason: 'RollingOut' },
    { name: 'outdated', inputs: { machines: [fact('m1', { upToDate: false })] }, type: 'MachinesUpToDate', status: 'False', reason: 'NotUpToDate' },
    { name: 'remediation', inputs: { remediation: { machine: 'm2' } }, type: 'Remediating', status: 'True', reason: 'RemediationInProgress' },
    { name: 'skip coredns', inputs: { skips: { coreDNS: true, kubeProxy: false } }, type: 'CoreDNSManaged', status: 'False', reason: 'Skipped' },
    { name: 'skip kube-proxy', inputs: { skips: { coreDNS: false, kubeProxy: true } }, type: 'KubeProxyManaged', status: 'False', reason: 'Skipped' },
    { name: 'coredns not managed yet', inputs: {}, type: 'CoreDNSManaged', status: 'False', reason: 'NotManaged' },
    { name: 'kube-proxy managed', inputs: {}, type: 'KubeProxyManaged', status: 'True', reason: 'Managed' },
    { name: 'template missing', inputs: { creationProblem: 'template gone' }, type: 'MachinesCreated', status: 'False', reason: 'MachineCreationFailed' },
  ])('$name: $type=$status', ({ inputs, type, status, reason }) => {
    const found = kcpConditions({ ...baseConditions, ...inputs }).find((c) => c.type === type);
    expect(found).toMatchObject({ status, reason });
  });

  it('names the machine under remediation', () => {
    const found = kcpConditions({ ...baseConditions, remediation: { machine: 'cp-abcde' } }).find((c) => c.type === 'Remediating');
    expect(found?.message).toContain('cp-abcde');
  });
});
