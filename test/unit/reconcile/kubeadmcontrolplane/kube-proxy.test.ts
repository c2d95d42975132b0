import { describe, expect, it } from 'vitest';
import { WORKLOAD_CLUSTER_PORT, WorkloadClusterUnavailableError } from '../../../../shared/ports/workload-cluster.js';
import { syncKubeProxyImage } from '../../../../functions/reconcile/kubeadm/controlplane/kube-proxy.js';
import type { ControlPlanePlan } from '../../../../functions/reconcile/kubeadm/controlplane/plan.js';
import { createKcpScope } from '../../../../functions/reconcile/kubeadm/controlplane/scope.js';
import { testContext } from '../../../support/reconcile-context.js';
import { workloadClusterStub } from '../../../support/workload-cluster-stub.js';

interface Case {
  image?: string;
  plan?: ControlPlanePlan;
  skip?: boolean;
  imageRepository?: string;
  initialized?: boolean;
  down?: boolean;
}

async function sync(c: Case): Promise<string[]> {
  const calls: string[] = [];
  const ctx = testContext();
  ctx.providers = {
    [WORKLOAD_CLUSTER_PORT]: workloadClusterStub({
      readContainerImage: async (_cluster, controller, container) => {
        calls.push(`read ${controller.kind} ${controller.namespace}/${controller.name} ${container}`);
        if (c.down) throw new WorkloadClusterUnavailableError('ConnectionDown', 'connect ECONNREFUSED');
        return c.image ? { image: c.image, resourceVersion: '5' } : undefined;
      },
      setContainerImage: async (_cluster, _controller, _container, image, rv) => {
        calls.push(`set ${image} at ${rv}`);
      },
    }),
  };
  const kcp = await ctx.store.create({
    apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmControlPlane',
    metadata: { name: 'cp', namespace: 'default', ...(c.skip ? { annotations: { 'controlplane.cluster.x-k8s.io/skip-kube-proxy': '' } } : {}) },
    spec: { version: 'v1.32.0', replicas: 3, kubeadmConfigSpec: c.imageRepository ? { clusterConfiguration: { imageRepository: c.imageRepository } } : {} },
  });
  const scope = { ...createKcpScope(ctx, kcp), clusterName: 'c1', initialized: c.initialized ?? true, plan: c.plan ?? { type: 'none' } };
  expect(await syncKubeProxyImage(scope)).toBeUndefined();
  return calls;
}

const READ = 'read DaemonSet kube-system/kube-proxy kube-proxy';

describe('kube-proxy following the control plane (UpdateKubeProxyImageInfo)', () => {
  it.for([
    ['nothing to scale or roll out: re-tagged with the version', { image: 'registry.k8s.io/kube-proxy:v1.31.2' }, [READ, 'set registry.k8s.io/kube-proxy:v1.32.0 at 5']],
    ['already at the version: not written', { image: 'registry.k8s.io/kube-proxy:v1.32.0' }, [READ]],
    ['the spec’s imageRepository: moved there too', { image: 'registry.k8s.io/kube-proxy:v1.31.2', imageRepository: 'mirror.example.com/k8s' }, [READ, 'set mirror.example.com/k8s/kube-proxy:v1.32.0 at 5']],
    ['pinned by digest: left as it is', { image: 'registry.k8s.io/kube-proxy@sha256:0123' }, [READ]],
    ['no kube-proxy DaemonSet: nothing to do', {}, [READ]],
    ['the workload cluster does not answer: looked at again next time, the reconcile goes on', { image: 'registry.k8s.io/kube-proxy:v1.31.2', down: true }, [READ]],
    ['a rollout under way: not yet', { image: 'registry.k8s.io/kube-proxy:v1.31.2', plan: { type: 'scaleUp', init: false, rollout: true } }, []],
    ['the skip-kube-proxy annotation: not asked', { image: 'registry.k8s.io/kube-proxy:v1.31.2', skip: true }, []],
    ['not initialized: not asked', { image: 'registry.k8s.io/kube-proxy:v1.31.2', initialized: false }, []],
  ] as const)('%s', async ([, c, expected]) => {
    expect(await sync(c)).toEqual(expected);
  });
});
