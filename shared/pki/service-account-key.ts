/** The service-account signing key pair (`<cluster>-sa`): a bare key, no certificate. */
import { DEFAULT_KEY_ALGORITHM, generateKeyPair, type KeyAlgorithm, privateKeyPem, publicKeyPem } from './key-algorithm.js';

export interface ServiceAccountKeyPair {
  /** PKIX `PUBLIC KEY` PEM (kubeadm's `sa.pub`). */
  publicKeyPem: string;
  /** `RSA PRIVATE KEY` or `EC PRIVATE KEY` PEM (kubeadm's `sa.key`). */
  privateKeyPem: string;
}

export async function generateServiceAccountKeyPair(
  algorithm: KeyAlgorithm = DEFAULT_KEY_ALGORITHM,
): Promise<ServiceAccountKeyPair> {
  const keys = await generateKeyPair(algorithm);
  return {
    publicKeyPem: await publicKeyPem(keys.publicKey),
    privateKeyPem: await privateKeyPem(keys.privateKey, algorithm),
  };
}
