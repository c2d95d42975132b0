/** Fresh cluster certificates from shared/pki, in the shape the certificate Secrets use. */

import { stringAt } from '../../../../shared/contracts/json.js';
import { generateClusterCertificates, isKeyAlgorithm } from '../../../../shared/pki/index.js';
import type { ClusterCertificates } from './cluster-certificates.js';

/** `clusterConfiguration.encryptionAlgorithm` of a kubeadm config spec, when valid. */
export function encryptionAlgorithmOf(kubeadmConfigSpec: unknown) {
  const value = stringAt(kubeadmConfigSpec, 'clusterConfiguration', 'encryptionAlgorithm');
  return isKeyAlgorithm(value) ? value : undefined;
}

export async function generateCertificates(
  clusterName: string,
  kubeadmConfigSpec: unknown,
  now: Date,
): Promise<ClusterCertificates> {
  const algorithm = encryptionAlgorithmOf(kubeadmConfigSpec);
  const { certificates } = await generateClusterCertificates(clusterName, { now, ...(algorithm ? { algorithm } : {}) });
  const pair = (purpose: keyof typeof certificates) => ({
    cert: certificates[purpose]['tls.crt'],
    key: certificates[purpose]['tls.key'],
  });
  return { ca: pair('ca'), etcd: pair('etcd'), proxy: pair('proxy'), sa: pair('sa') };
}
