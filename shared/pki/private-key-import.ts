/**
 * Reads a PEM private key (PKCS#1, SEC1 or PKCS#8) back into a WebCrypto signing key. The PEM is
 * parsed once (OpenSSL 3's decoders take about half a millisecond a key) and handed to WebCrypto
 * as a JWK, which it imports in a third of the time PKCS#8 takes.
 */
import { type AsymmetricKeyDetails, createPrivateKey, type KeyObject, webcrypto } from 'node:crypto';
import { TerminalError } from '../errors/index.js';
import type { KeyAlgorithm } from './key-algorithm.js';

export interface ImportedPrivateKey {
  key: CryptoKey;
  algorithm: KeyAlgorithm;
}

function algorithmOf(keyObject: KeyObject): KeyAlgorithm {
  const details = keyObject.asymmetricKeyDetails ?? {};
  if (keyObject.asymmetricKeyType === 'rsa') {
    const bits = details.modulusLength;
    if (bits === 2048 || bits === 3072 || bits === 4096) return `RSA-${bits}`;
  }
  if (keyObject.asymmetricKeyType === 'ec') {
    if (details.namedCurve === 'prime256v1') return 'ECDSA-P256';
    if (details.namedCurve === 'secp384r1') return 'ECDSA-P384';
  }
  throw new TerminalError(
    'UnsupportedKey',
    `unsupported private key: ${keyObject.asymmetricKeyType ?? 'unknown'}${sizeOf(details)} (kubeadm uses RSA 2048, 3072 or 4096 bits, or ECDSA P-256 or P-384)`,
  );
}

/** The key's size or curve, as a suffix (its details hold a bigint exponent JSON cannot print). */
function sizeOf(details: AsymmetricKeyDetails): string {
  if (details.modulusLength !== undefined) return ` ${details.modulusLength} bits`;
  if (details.namedCurve !== undefined) return ` ${details.namedCurve}`;
  return '';
}

function importParams(algorithm: KeyAlgorithm): RsaHashedImportParams | EcKeyImportParams {
  if (algorithm.startsWith('RSA')) return { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  return { name: 'ECDSA', namedCurve: algorithm === 'ECDSA-P384' ? 'P-384' : 'P-256' };
}

export async function importPrivateKeyPem(pem: string): Promise<ImportedPrivateKey> {
  const keyObject = createPrivateKey(pem);
  const algorithm = algorithmOf(keyObject);
  const key = await webcrypto.subtle.importKey('jwk', keyObject.export({ format: 'jwk' }), importParams(algorithm), false, ['sign']);
  return { key, algorithm };
}
