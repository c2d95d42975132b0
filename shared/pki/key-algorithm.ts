/**
 * Key algorithms kubeadm and Cluster API accept (`clusterConfiguration.encryptionAlgorithm`),
 * and how each one generates keys, signs and serializes its private key.
 */
import { KeyObject, webcrypto } from 'node:crypto';
import { immediateSubtle } from './immediate-subtle.js';

export const KEY_ALGORITHMS = ['RSA-2048', 'RSA-3072', 'RSA-4096', 'ECDSA-P256', 'ECDSA-P384'] as const;
export type KeyAlgorithm = (typeof KEY_ALGORITHMS)[number];

/** kubeadm's default (`EncryptionAlgorithmType` RSA-2048). */
export const DEFAULT_KEY_ALGORITHM: KeyAlgorithm = 'RSA-2048';

export function isKeyAlgorithm(value: unknown): value is KeyAlgorithm {
  return typeof value === 'string' && (KEY_ALGORITHMS as readonly string[]).includes(value);
}

type GenerateParams = RsaHashedKeyGenParams | EcKeyGenParams;
type SignParams = Algorithm | EcdsaParams;

interface AlgorithmProfile {
  generate: GenerateParams;
  /** What the certificate is signed with (Go x509 picks SHA-256 for RSA and P-256, SHA-384 for P-384). */
  sign: SignParams;
  /** PKCS#1 `RSA PRIVATE KEY` or SEC1 `EC PRIVATE KEY`, as Go's x509 Marshal* functions write. */
  privateKeyType: 'pkcs1' | 'sec1';
}

const RSA_EXPONENT = new Uint8Array([1, 0, 1]);

function rsa(modulusLength: number): AlgorithmProfile {
  return {
    generate: { name: 'RSASSA-PKCS1-v1_5', modulusLength, publicExponent: RSA_EXPONENT, hash: 'SHA-256' },
    sign: { name: 'RSASSA-PKCS1-v1_5' },
    privateKeyType: 'pkcs1',
  };
}

function ecdsa(namedCurve: 'P-256' | 'P-384', hash: 'SHA-256' | 'SHA-384'): AlgorithmProfile {
  return {
    generate: { name: 'ECDSA', namedCurve },
    sign: { name: 'ECDSA', hash },
    privateKeyType: 'sec1',
  };
}

const PROFILES: Record<KeyAlgorithm, AlgorithmProfile> = {
  'RSA-2048': rsa(2048),
  'RSA-3072': rsa(3072),
  'RSA-4096': rsa(4096),
  'ECDSA-P256': ecdsa('P-256', 'SHA-256'),
  'ECDSA-P384': ecdsa('P-384', 'SHA-384'),
};

export function signingAlgorithmFor(algorithm: KeyAlgorithm): SignParams {
  return PROFILES[algorithm].sign;
}

/**
 * Generates an extractable key pair. WebCrypto key generation runs on libuv's thread pool, so
 * an RSA-4096 key does not block the event loop.
 */
export async function generateKeyPair(algorithm: KeyAlgorithm): Promise<CryptoKeyPair> {
  return webcrypto.subtle.generateKey(PROFILES[algorithm].generate, true, ['sign', 'verify']);
}

/**
 * The private key as PEM in the encoding kubeadm writes (`RSA PRIVATE KEY` / `EC PRIVATE KEY`),
 * serialized straight from the key's KeyObject: exporting PKCS#8 and parsing it back cost about
 * 1 ms per key on OpenSSL 3's decoders, 70 times the export itself.
 */
export async function privateKeyPem(key: CryptoKey, algorithm: KeyAlgorithm): Promise<string> {
  if (!key.extractable || key.type !== 'private') throw new TypeError('privateKeyPem needs an extractable private key');
  const type = PROFILES[algorithm].privateKeyType;
  return KeyObject.from(key).export({ type, format: 'pem' }).toString();
}

/** The public key as PKIX `PUBLIC KEY` PEM. */
export async function publicKeyPem(key: CryptoKey): Promise<string> {
  const spki = Buffer.from(await immediateSubtle.exportKey('spki', key));
  return toPem('PUBLIC KEY', spki);
}

export function toPem(label: string, der: Uint8Array): string {
  const body = Buffer.from(der).toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${body.join('\n')}\n-----END ${label}-----\n`;
}

/** PEM text ending in a newline, as Go's `pem.Encode` writes it. */
export function pemWithNewline(pem: string): string {
  return pem.endsWith('\n') ? pem : `${pem}\n`;
}
