/** Reads a PEM private key (PKCS#1, SEC1 or PKCS#8) back into a WebCrypto signing key. */
import { createPrivateKey, webcrypto } from 'node:crypto';
import { TerminalError } from '../errors/index.js';
import type { KeyAlgorithm } from './key-algorithm.js';

export interface ImportedPrivateKey {
  key: CryptoKey;
  algorithm: KeyAlgorithm;
}

function algorithmOf(pem: string): KeyAlgorithm {
  const keyObject = createPrivateKey(pem);
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
    `unsupported private key: ${keyObject.asymmetricKeyType ?? 'unknown'} ${JSON.stringify(details)}`,
  );
}

function importParams(algorithm: KeyAlgorithm): RsaHashedImportParams | EcKeyImportParams {
  if (algorithm.startsWith('RSA')) return { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  return { name: 'ECDSA', namedCurve: algorithm === 'ECDSA-P384' ? 'P-384' : 'P-256' };
}

export async function importPrivateKeyPem(pem: string): Promise<ImportedPrivateKey> {
  const algorithm = algorithmOf(pem);
  const pkcs8 = createPrivateKey(pem).export({ type: 'pkcs8', format: 'der' });
  const key = await webcrypto.subtle.importKey('pkcs8', pkcs8, importParams(algorithm), false, ['sign']);
  return { key, algorithm };
}
