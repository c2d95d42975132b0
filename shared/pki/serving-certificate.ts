/**
 * A self-signed TLS serving certificate for a local endpoint (the embedded API): ECDSA P-256,
 * subjectAltName for the given IPs and DNS names, serverAuth. Clients trust it through the
 * kubeconfig's certificate-authority-data.
 */
import { x509 } from './crypto-provider.js';
import { addDays, CLOCK_SKEW_MS, type CertificateKeyPair } from './certificate-authority.js';
import { generateKeyPair, pemWithNewline, privateKeyPem, signingAlgorithmFor } from './key-algorithm.js';

export interface ServingCertificateOptions {
  /** IP addresses and DNS names the certificate is valid for; the first is also the CN. */
  hosts: readonly string[];
  /** @default 365 */
  validityDays?: number;
  now: Date;
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

export async function generateServingCertificate(options: ServingCertificateOptions): Promise<CertificateKeyPair> {
  const algorithm = 'ECDSA-P256';
  const keys = await generateKeyPair(algorithm);
  const names = options.hosts.map((host) =>
    IPV4.test(host) || host.includes(':') ? { type: 'ip' as const, value: host } : { type: 'dns' as const, value: host },
  );
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    name: [{ CN: [options.hosts[0] ?? 'localhost'] }],
    notBefore: new Date(options.now.getTime() - CLOCK_SKEW_MS),
    notAfter: addDays(options.now, options.validityDays ?? 365),
    signingAlgorithm: signingAlgorithmFor(algorithm),
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(names),
    ],
  });
  return { certPem: pemWithNewline(certificate.toString('pem')), keyPem: await privateKeyPem(keys.privateKey, algorithm) };
}
