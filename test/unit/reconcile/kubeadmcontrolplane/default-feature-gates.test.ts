import { describe, expect, it } from 'vitest';
import { kubeadmConfigSpecFor, withDefaultFeatureGates } from '../../../../functions/reconcile/kubeadm/controlplane/machine-factory.js';

describe('Cluster API’s DefaultFeatureGates: ControlPlaneKubeletLocalMode from Kubernetes v1.31 until v1.36', () => {
  it.for([
    ['v1.30.9: not yet', 'v1.30.9', {}, {}],
    ['v1.31.0: on', 'v1.31.0', {}, { featureGates: { ControlPlaneKubeletLocalMode: true } }],
    ['a pre-release of v1.31 counts as v1.31', 'v1.31.0-rc.1', {}, { featureGates: { ControlPlaneKubeletLocalMode: true } }],
    ['v1.35.4: on', 'v1.35.4', {}, { featureGates: { ControlPlaneKubeletLocalMode: true } }],
    ['v1.36.0: GA, no gate', 'v1.36.0', {}, {}],
    ['the spec turned it off: kept', 'v1.33.0', { featureGates: { ControlPlaneKubeletLocalMode: false } }, { featureGates: { ControlPlaneKubeletLocalMode: false } }],
    ['other gates kept beside it', 'v1.33.0', { featureGates: { EtcdLearnerMode: true } }, { featureGates: { EtcdLearnerMode: true, ControlPlaneKubeletLocalMode: true } }],
    ['not a version: left alone', 'latest', {}, {}],
  ] as const)('%s', ([, version, given, expected]) => {
    expect(withDefaultFeatureGates({ ...given }, version)).toEqual(expected);
  });

  it('the first control-plane Machine’s config carries it (kubeadm init stores it in the cluster for every join); a joining one’s keeps its cluster configuration, with it', () => {
    const spec = { clusterConfiguration: { apiServer: { certSANs: ['cp.example.com'] } }, joinConfiguration: {} };
    expect(kubeadmConfigSpecFor(spec, true, 'v1.32.1')).toMatchObject({
      clusterConfiguration: { apiServer: { certSANs: ['cp.example.com'] }, featureGates: { ControlPlaneKubeletLocalMode: true } },
      initConfiguration: {},
    });
    expect(kubeadmConfigSpecFor(spec, false, 'v1.32.1')).toEqual({
      clusterConfiguration: { apiServer: { certSANs: ['cp.example.com'] }, featureGates: { ControlPlaneKubeletLocalMode: true } },
      joinConfiguration: { controlPlane: {} },
    });
    // The KubeadmControlPlane's own spec is not changed (its hash decides rollouts).
    expect(spec.clusterConfiguration).not.toHaveProperty('featureGates');
  });
});
