/**
 * Client certificates signed by a cluster CA, as Cluster API's kubeconfig helpers issue them
 * (util/kubeconfig `generateClientCert`): EKU clientAuth, KeyUsage digitalSignature+keyEncipherment,
 * a random serial below 2^63, notBefore = the CA's notBefore.
 */
import { randomBytes } from 'node:crypto';
import { type CertificateKeyPair, addDays } from './certificate-authority.js';
import { x509 } from './crypto-provider.js';
import {
  DEFAULT_KEY_ALGORITHM,
  generateKeyPair,
  type KeyAlgorithm,
  privateKeyPem,
  signingAlgorithmFor,
  pemWithNewline,
} from './key-algorithm.js';
import { importPrivateKeyPem } from './private-key-import.js';

export interface ClientCertificateOptions {
  ca: CertificateKeyPair;
  /** @default 'kubernetes-admin' */
  commonName?: string;
  /** @default 'system:masters' */
  organization?: string;
  /** @default 365 */
  validityDays?: number;
  /** Algorithm of the new client key (KCP uses its own `encryptionAlgorithm`). @default 'RSA-2048' */
  algorithm?: KeyAlgorithm;
  now: Date;
}

/** 8 random bytes with the top bit cleared: a positive serial below 2^63. */
function randomSerialHex(): string {
  const bytes = randomBytes(8);
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return bytes.toString('hex');
}

export async function issueClientCertificate(options: ClientCertificateOptions): Promise<CertificateKeyPair> {
  const caCert = new x509.X509Certificate(options.ca.certPem);
  const caKey = await importPrivateKeyPem(options.ca.keyPem);
  const algorithm = options.algorithm ?? DEFAULT_KEY_ALGORITHM;
  const keys = await generateKeyPair(algorithm);
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerialHex(),
    subject: [{ O: [options.organization ?? 'system:masters'] }, { CN: [options.commonName ?? 'kubernetes-admin'] }],
    issuer: caCert.subjectName,
    notBefore: caCert.notBefore,
    notAfter: addDays(options.now, options.validityDays ?? 365),
    signingAlgorithm: signingAlgorithmFor(caKey.algorithm),
    publicKey: keys.publicKey,
    signingKey: caKey.key,
    extensions: [
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
      await x509.AuthorityKeyIdentifierExtension.create(caCert.publicKey),
    ],
  });
  return { certPem: pemWithNewline(certificate.toString('pem')), keyPem: await privateKeyPem(keys.privateKey, algorithm) };
}
