/**
 * Self-signed CAs as Cluster API's `newSelfSignedCACert` makes them (util/certs): CN only, notBefore now − 5 min, CA:TRUE pathlen 0, KeyUsage
 * digitalSignature+keyEncipherment+keyCertSign. One deviation: upstream uses serial 0, which
 * RFC 5280 forbids and @peculiar/x509 cannot encode; we use a random positive serial, as
 * kubeadm's own `NewSelfSignedCACert` does.
 */
import { x509 } from './crypto-provider.js';
import {
  DEFAULT_KEY_ALGORITHM,
  generateKeyPair,
  type KeyAlgorithm,
  privateKeyPem,
  signingAlgorithmFor,
  pemWithNewline,
} from './key-algorithm.js';

export interface CertificateAuthorityOptions {
  /** @default 'kubernetes' */
  commonName?: string;
  /** @default 'RSA-2048' */
  algorithm?: KeyAlgorithm;
  /** `caCertificateValidityPeriodDays`. @default 3650 */
  validityDays?: number;
  now: Date;
}

/** A certificate and its private key, both PEM. */
export interface CertificateKeyPair {
  certPem: string;
  keyPem: string;
}

export const DEFAULT_CA_VALIDITY_DAYS = 3650;
export const CLOCK_SKEW_MS = 5 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

export async function generateCertificateAuthority(
  options: CertificateAuthorityOptions,
): Promise<CertificateKeyPair> {
  const algorithm = options.algorithm ?? DEFAULT_KEY_ALGORITHM;
  const keys = await generateKeyPair(algorithm);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    name: [{ CN: [options.commonName ?? 'kubernetes'] }],
    notBefore: new Date(options.now.getTime() - CLOCK_SKEW_MS),
    notAfter: addDays(options.now, options.validityDays ?? DEFAULT_CA_VALIDITY_DAYS),
    signingAlgorithm: signingAlgorithmFor(algorithm),
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment | x509.KeyUsageFlags.keyCertSign,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: pemWithNewline(certificate.toString('pem')), keyPem: await privateKeyPem(keys.privateKey, algorithm) };
}
