export { KUBEADM_V1BETA3, KUBEADM_V1BETA4, kubeadmApiVersion, parseKubernetesVersion } from './api-version.js';
export type { KubeadmApiVersion, KubernetesVersion } from './api-version.js';
export { encodeBootstrapData, USER_DATA_LIMIT_BYTES, userDataBytes } from './bootstrap-data.js';
export type { BootstrapData } from './bootstrap-data.js';
export {
  certificateFiles,
  DEFAULT_CERTIFICATES_DIR,
  missingCertificates,
} from './cloud-config/certificate-files.js';
export type { CertificateFilesInput, ExternalEtcdFiles } from './cloud-config/certificate-files.js';
export {
  CLOUD_CONFIG_HEADER,
  KUBEADM_INIT_CONFIG_PATH,
  KUBEADM_JOIN_CONFIG_PATH,
  PLACEHOLDER_PATH,
  renderCloudConfig,
  SENTINEL_COMMAND,
  SENTINEL_FILE,
} from './cloud-config/render.js';
export type {
  CloudConfigInput,
  CloudConfigRole,
  CloudInitFile,
  CloudInitUser,
  CommonCloudConfigInput,
  ControlPlaneJoinCloudConfigInput,
  InitCloudConfigInput,
  WorkerCloudConfigInput,
} from './cloud-config/types.js';
export { controlPlaneEndpointAddress, hasControlPlaneEndpoint, joinHostPort } from './control-plane-endpoint.js';
export { buildClusterConfiguration } from './documents/cluster-configuration.js';
export { buildInitConfiguration } from './documents/init-configuration.js';
export { buildJoinConfiguration, UNINITIALIZED_TAINT } from './documents/join-configuration.js';
export type { JoinRole } from './documents/join-configuration.js';
export { renderInitDocuments, renderJoinDocument } from './documents/render.js';
export type { InitDocuments, InitDocumentsInput, JoinDocument, JoinDocumentInput } from './documents/render.js';
export { toKubeadmYaml } from './documents/serialize.js';
export { goDuration } from './go-duration.js';
export { ENDPOINT_REQUEUE_SECONDS, fillJoinDiscovery } from './join-discovery.js';
export type { JoinDiscoveryInput, JoinDiscoveryResult } from './join-discovery.js';
export * from './types.js';
