/**
 * The kubeadm documents for each bootstrap role, as YAML text ready for the cloud-config.
 * Init uses the owning Machine's version; a join uses the joining Machine's own version.
 */
import { kubeadmApiVersion, type KubeadmApiVersion } from '../api-version.js';
import type { KubeadmClusterInput, KubeadmConfigSpec } from '../types.js';
import { buildClusterConfiguration } from './cluster-configuration.js';
import { buildInitConfiguration } from './init-configuration.js';
import { buildJoinConfiguration, type JoinRole } from './join-configuration.js';
import { toKubeadmYaml } from './serialize.js';

export interface InitDocumentsInput {
  spec: KubeadmConfigSpec;
  cluster: KubeadmClusterInput;
  /** The Machine's `spec.version`, e.g. `v1.31.2`. */
  kubernetesVersion: string;
}

export interface InitDocuments {
  apiVersion: KubeadmApiVersion;
  clusterConfiguration: string;
  initConfiguration: string;
}

export function renderInitDocuments(input: InitDocumentsInput): InitDocuments {
  const apiVersion = kubeadmApiVersion(input.kubernetesVersion);
  const clusterConfiguration = buildClusterConfiguration({
    apiVersion,
    spec: input.spec.clusterConfiguration,
    cluster: input.cluster,
    kubernetesVersion: input.kubernetesVersion,
    initTimeouts: input.spec.initConfiguration?.timeouts,
  });
  return {
    apiVersion,
    clusterConfiguration: toKubeadmYaml(clusterConfiguration),
    initConfiguration: toKubeadmYaml(buildInitConfiguration(input.spec.initConfiguration, apiVersion)),
  };
}

export interface JoinDocumentInput {
  /** Its `joinConfiguration.discovery` should already be filled (see `fillJoinDiscovery`). */
  spec: KubeadmConfigSpec;
  role: JoinRole;
  /** The joining Machine's `spec.version`. */
  kubernetesVersion: string;
}

export interface JoinDocument {
  apiVersion: KubeadmApiVersion;
  joinConfiguration: string;
}

export function renderJoinDocument(input: JoinDocumentInput): JoinDocument {
  const apiVersion = kubeadmApiVersion(input.kubernetesVersion);
  const document = buildJoinConfiguration(input.spec.joinConfiguration, input.role, apiVersion);
  return { apiVersion, joinConfiguration: toKubeadmYaml(document) };
}
