export { buildAdminKubeconfig, apiServerUrl, kubeconfigSecretName, KUBECONFIG_SECRET_KEY } from './admin-kubeconfig.js';
export type { AdminKubeconfigInput } from './admin-kubeconfig.js';
export { BOOTSTRAP_TOKEN_PATTERN, generateBootstrapToken, parseBootstrapToken } from './bootstrap-token.js';
export type { BootstrapTokenParts } from './bootstrap-token.js';
export { caCertHash, caCertHashes } from './ca-cert-hash.js';
export { DEFAULT_CA_VALIDITY_DAYS, generateCertificateAuthority } from './certificate-authority.js';
export type { CertificateAuthorityOptions, CertificateKeyPair } from './certificate-authority.js';
export { issueClientCertificate } from './client-certificate.js';
export type { ClientCertificateOptions } from './client-certificate.js';
export {
  CLUSTER_CERTIFICATE_PURPOSES,
  clusterCertificateSecretName,
  clusterCertificateSecrets,
  generateClusterCertificates,
} from './cluster-certificates.js';
export type {
  ClusterCertificateOptions,
  ClusterCertificatePurpose,
  ClusterCertificates,
  ClusterCertificateSecret,
  GeneratedClusterCertificates,
  TlsSecretData,
} from './cluster-certificates.js';
export { DEFAULT_KEY_ALGORITHM, KEY_ALGORITHMS, isKeyAlgorithm } from './key-algorithm.js';
export type { KeyAlgorithm } from './key-algorithm.js';
export { generateServiceAccountKeyPair } from './service-account-key.js';
export type { ServiceAccountKeyPair } from './service-account-key.js';
export { generateServingCertificate } from './serving-certificate.js';
export type { ServingCertificateOptions } from './serving-certificate.js';
