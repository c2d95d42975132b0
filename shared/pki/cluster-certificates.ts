/**
 * The four Secrets Cluster API keeps per cluster (util/secret): `<cluster>-ca`, `-etcd`,
 * `-proxy` and `-sa`, each with data keys `tls.crt` and `tls.key`.
 */
import { generateCertificateAuthority } from './certificate-authority.js';
import { DEFAULT_KEY_ALGORITHM, type KeyAlgorithm } from './key-algorithm.js';
import { generateServiceAccountKeyPair } from './service-account-key.js';

export const CLUSTER_CERTIFICATE_PURPOSES = ['ca', 'etcd', 'proxy', 'sa'] as const;
export type ClusterCertificatePurpose = (typeof CLUSTER_CERTIFICATE_PURPOSES)[number];

/** The data of one certificate Secret. For `sa`, `tls.crt` holds the PKIX public key. */
export interface TlsSecretData {
  'tls.crt': string;
  'tls.key': string;
}

export type ClusterCertificates = Record<ClusterCertificatePurpose, TlsSecretData>;

export interface ClusterCertificateSecret {
  purpose: ClusterCertificatePurpose;
  /** `<cluster>-<purpose>`. */
  name: string;
  data: TlsSecretData;
}

export interface ClusterCertificateOptions {
  /** `clusterConfiguration.encryptionAlgorithm`. @default 'RSA-2048' */
  algorithm?: KeyAlgorithm;
  /** `clusterConfiguration.caCertificateValidityPeriodDays`. @default 3650 */
  validityDays?: number;
  now: Date;
}

/** The Secret name Cluster API uses for a cluster certificate: `<cluster>-ca`, `<cluster>-etcd`, … */
export function clusterCertificateSecretName(clusterName: string, purpose: ClusterCertificatePurpose): string {
  return `${clusterName}-${purpose}`;
}

export interface GeneratedClusterCertificates {
  /** By purpose: what the cloud-config renderer takes. */
  certificates: ClusterCertificates;
  /** The four Secrets to create, in Cluster API's order (ca, etcd, proxy, sa). */
  secrets: ClusterCertificateSecret[];
}

/** Generates the three CAs (ca, etcd, front-proxy) and the service-account key pair in parallel. */
export async function generateClusterCertificates(
  clusterName: string,
  options: ClusterCertificateOptions,
): Promise<GeneratedClusterCertificates> {
  const algorithm = options.algorithm ?? DEFAULT_KEY_ALGORITHM;
  const caOptions = { algorithm, validityDays: options.validityDays, now: options.now };
  const [ca, etcd, proxy, sa] = await Promise.all([
    generateCertificateAuthority(caOptions),
    generateCertificateAuthority(caOptions),
    generateCertificateAuthority(caOptions),
    generateServiceAccountKeyPair(algorithm),
  ]);
  const certificates: ClusterCertificates = {
    ca: { 'tls.crt': ca.certPem, 'tls.key': ca.keyPem },
    etcd: { 'tls.crt': etcd.certPem, 'tls.key': etcd.keyPem },
    proxy: { 'tls.crt': proxy.certPem, 'tls.key': proxy.keyPem },
    sa: { 'tls.crt': sa.publicKeyPem, 'tls.key': sa.privateKeyPem },
  };
  return { certificates, secrets: clusterCertificateSecrets(clusterName, certificates) };
}

/** The certificates as the four Secrets to create, in Cluster API's order. */
export function clusterCertificateSecrets(
  clusterName: string,
  certificates: ClusterCertificates,
): ClusterCertificateSecret[] {
  return CLUSTER_CERTIFICATE_PURPOSES.map((purpose) => ({
    purpose,
    name: clusterCertificateSecretName(clusterName, purpose),
    data: certificates[purpose],
  }));
}
