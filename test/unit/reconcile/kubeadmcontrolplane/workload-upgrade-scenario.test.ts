import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { stringAt } from '../../../../shared/contracts/json.js';
import { toKubeadmYaml } from '../../../../shared/kubeadm/index.js';
import { cpMachines, NS, setSpec, setup } from '../../../support/kcp-converge.js';

describe('KubeadmControlPlane upgrades in the workload cluster (converge harness, in-memory provider)', () => {
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
});
