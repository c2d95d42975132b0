/**
 * ClusterConfiguration (Cluster API `computeClusterConfigurationAndAdditionalData` plus the
 * upstream v1beta3/v1beta4 conversions): the spec's clusterConfiguration completed from the
 * Cluster and the Machine version.
 */
import { type KubeadmApiVersion, KUBEADM_V1BETA4 } from '../api-version.js';
import { controlPlaneEndpointAddress } from '../control-plane-endpoint.js';
import type { ClusterConfigurationSpec, KubeadmClusterInput, TimeoutsSpec } from '../types.js';
import { durationOf, extraArgs, type KubeadmObject, nonEmpty } from './fields.js';

export interface ClusterConfigurationInput {
  apiVersion: KubeadmApiVersion;
  spec: ClusterConfigurationSpec | undefined;
  cluster: KubeadmClusterInput;
  /** The Machine's `spec.version`. */
  kubernetesVersion: string;
  /** `initConfiguration.timeouts`: v1beta3 puts the health-check timeout on the API server. */
  initTimeouts?: TimeoutsSpec;
}

type Component = NonNullable<ClusterConfigurationSpec['controllerManager']>;

function component(spec: Component | undefined, apiVersion: KubeadmApiVersion): KubeadmObject {
  return {
    extraArgs: extraArgs(spec?.extraArgs, apiVersion),
    extraVolumes: nonEmpty(spec?.extraVolumes),
    extraEnvs: apiVersion === KUBEADM_V1BETA4 ? nonEmpty(spec?.extraEnvs) : undefined,
  };
}

function etcd(spec: ClusterConfigurationSpec['etcd'], apiVersion: KubeadmApiVersion): KubeadmObject {
  const local = spec?.local;
  return {
    external: spec?.external ? { ...spec.external } : undefined,
    local: local
      ? {
          imageRepository: local.imageRepository,
          imageTag: local.imageTag,
          dataDir: local.dataDir,
          extraArgs: extraArgs(local.extraArgs, apiVersion),
          extraEnvs: apiVersion === KUBEADM_V1BETA4 ? nonEmpty(local.extraEnvs) : undefined,
          serverCertSANs: nonEmpty(local.serverCertSANs),
          peerCertSANs: nonEmpty(local.peerCertSANs),
        }
      : undefined,
  };
}

function joinedCidrs(blocks: string[] | undefined): string | undefined {
  return blocks && blocks.length > 0 ? blocks.join(',') : undefined;
}

function daysDuration(days: number | undefined): string | undefined {
  return durationOf(days === undefined ? undefined : days * 86_400);
}

export function buildClusterConfiguration(input: ClusterConfigurationInput): KubeadmObject {
  const { apiVersion, cluster } = input;
  const spec = input.spec ?? {};
  const v4 = apiVersion === KUBEADM_V1BETA4;
  const network = cluster.clusterNetwork;
  return {
    apiVersion,
    kind: 'ClusterConfiguration',
    apiServer: {
      ...component(spec.apiServer, apiVersion),
      certSANs: nonEmpty(spec.apiServer?.certSANs),
      timeoutForControlPlane: v4 ? undefined : durationOf(input.initTimeouts?.controlPlaneComponentHealthCheckSeconds),
    },
    certificatesDir: spec.certificatesDir || undefined,
    clusterName: cluster.name,
    controlPlaneEndpoint: spec.controlPlaneEndpoint || controlPlaneEndpointAddress(cluster),
    controllerManager: component(spec.controllerManager, apiVersion),
    dns: { imageRepository: spec.dns?.imageRepository, imageTag: spec.dns?.imageTag },
    etcd: etcd(spec.etcd, apiVersion),
    featureGates: spec.featureGates && Object.keys(spec.featureGates).length > 0 ? { ...spec.featureGates } : undefined,
    imageRepository: spec.imageRepository || undefined,
    kubernetesVersion: input.kubernetesVersion,
    networking: {
      dnsDomain: network?.serviceDomain || undefined,
      podSubnet: joinedCidrs(network?.pods?.cidrBlocks),
      serviceSubnet: joinedCidrs(network?.services?.cidrBlocks),
    },
    proxy: v4 ? {} : undefined,
    scheduler: component(spec.scheduler, apiVersion),
    encryptionAlgorithm: v4 ? spec.encryptionAlgorithm : undefined,
    certificateValidityPeriod: v4 ? daysDuration(spec.certificateValidityPeriodDays) : undefined,
    caCertificateValidityPeriod: v4 ? daysDuration(spec.caCertificateValidityPeriodDays) : undefined,
  };
}
