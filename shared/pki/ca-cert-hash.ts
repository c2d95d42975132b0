/**
 * kubeadm's CA pinning hash (`--discovery-token-ca-cert-hash`): `sha256:` + lowercase hex of the
 * SHA-256 of the certificate's DER SubjectPublicKeyInfo.
 */
import { X509Certificate, createHash } from 'node:crypto';
import { InvalidError } from '../errors/index.js';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * Hashes already computed, by certificate PEM. A cluster's CA is hashed again for every joining
 * Machine's bootstrap data, and parsing the certificate is most of the cost. Past this many
 * certificates the memo starts over (a bound, not a tuning knob).
 */
const MAX_REMEMBERED = 1024;
const remembered = new Map<string, string>();

function hashOf(pem: string): string {
  const known = remembered.get(pem);
  if (known !== undefined) return known;
  const spki = new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' });
  const hash = `sha256:${createHash('sha256').update(spki).digest('hex')}`;
  if (remembered.size >= MAX_REMEMBERED) remembered.clear();
  remembered.set(pem, hash);
  return hash;
}

/** One hash per certificate in the PEM bundle, in order (Cluster API's `Certificate.Hashes`). */
export function caCertHashes(bundlePem: string): string[] {
  const blocks = bundlePem.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) {
    throw new InvalidError('no PEM certificate found', { causes: [{ field: 'tls.crt', message: 'no certificate' }] });
  }
  return blocks.map(hashOf);
}

/** The hash of the first certificate in the PEM. */
export function caCertHash(certPem: string): string {
  const [first] = caCertHashes(certPem);
  if (first === undefined) throw new InvalidError('no PEM certificate found');
  return first;
}
