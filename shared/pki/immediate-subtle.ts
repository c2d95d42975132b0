/**
 * WebCrypto with its cheap operations done at once (ADR 0133).
 *
 * Node's WebCrypto runs every call on libuv's thread pool and resolves it on a later turn of the
 * event loop. Hashing, exporting a key and signing take microseconds for ECDSA and at most a few
 * milliseconds for RSA-4096, less than one turn costs when the loop is busy: under a 50-cluster
 * burst a turn took about 100 ms, and the dozen turns a KubeadmControlPlane's certificates needed
 * held it for 0.8–2 s. Here `digest`, `exportKey` (spki, pkcs8) and `sign` (ECDSA,
 * RSASSA-PKCS1-v1_5) run synchronously on node:crypto and resolve at once, with the results
 * WebCrypto gives (an ECDSA signature is r‖s, IEEE P1363). Everything else — key generation
 * (50 ms to seconds for RSA), import, verify — and any call these paths do not accept (a
 * non-extractable key, a public key asked to sign) goes to WebCrypto unchanged, so its errors
 * are WebCrypto's.
 */
import { createHash, KeyObject, sign } from 'node:crypto';

const NODE_HASHES: Readonly<Record<string, string>> = {
  'SHA-1': 'sha1',
  'SHA-256': 'sha256',
  'SHA-384': 'sha384',
  'SHA-512': 'sha512',
};

const subtle = globalThis.crypto.subtle;

function nodeHash(algorithm: unknown): string | undefined {
  const name = typeof algorithm === 'string' ? algorithm : nameOf(algorithm);
  return name === undefined ? undefined : NODE_HASHES[name.toUpperCase()];
}

function nameOf(algorithm: unknown): string | undefined {
  if (typeof algorithm !== 'object' || algorithm === null || !('name' in algorithm)) return undefined;
  return typeof algorithm.name === 'string' ? algorithm.name : undefined;
}

function hashOf(algorithm: unknown): unknown {
  return typeof algorithm === 'object' && algorithm !== null && 'hash' in algorithm ? algorithm.hash : undefined;
}

function bytesOf(data: BufferSource): Buffer {
  return ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data);
}

function arrayBufferOf(bytes: Buffer): ArrayBuffer {
  const copy = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(copy).set(bytes);
  return copy;
}

/** The digest at once, or undefined for an algorithm left to WebCrypto. */
function digestNow(algorithm: AlgorithmIdentifier, data: BufferSource): ArrayBuffer | undefined {
  const hash = nodeHash(algorithm);
  return hash === undefined ? undefined : arrayBufferOf(createHash(hash).update(bytesOf(data)).digest());
}

/** An extractable key as DER SPKI or PKCS#8 at once, or undefined for what WebCrypto must decide. */
function exportKeyNow(format: string, key: CryptoKey): ArrayBuffer | undefined {
  if (!key.extractable) return undefined;
  if (format === 'spki' && key.type === 'public') return arrayBufferOf(KeyObject.from(key).export({ type: 'spki', format: 'der' }));
  if (format === 'pkcs8' && key.type === 'private') return arrayBufferOf(KeyObject.from(key).export({ type: 'pkcs8', format: 'der' }));
  return undefined;
}

/** The signature at once for ECDSA and RSASSA-PKCS1-v1_5 signing keys, or undefined. */
function signNow(algorithm: AlgorithmIdentifier, key: CryptoKey, data: BufferSource): ArrayBuffer | undefined {
  if (key.type !== 'private' || !key.usages.includes('sign')) return undefined;
  const name = typeof algorithm === 'string' ? algorithm : nameOf(algorithm);
  if (name === undefined || name !== key.algorithm.name) return undefined;
  if (name === 'ECDSA') {
    const hash = nodeHash(hashOf(algorithm));
    if (hash === undefined) return undefined;
    return arrayBufferOf(sign(hash, bytesOf(data), { key: KeyObject.from(key), dsaEncoding: 'ieee-p1363' }));
  }
  if (name === 'RSASSA-PKCS1-v1_5') {
    // WebCrypto signs RSASSA-PKCS1-v1_5 with the hash bound to the key.
    const hash = nodeHash(hashOf(key.algorithm));
    if (hash === undefined) return undefined;
    return arrayBufferOf(sign(hash, bytesOf(data), KeyObject.from(key)));
  }
  return undefined;
}

function settled<T>(compute: () => T | undefined, fallback: () => Promise<T>): Promise<T> {
  let result: T | undefined;
  try {
    result = compute();
  } catch {
    return fallback();
  }
  return result === undefined ? fallback() : Promise.resolve(result);
}

/** SubtleCrypto whose digest, exportKey and sign resolve at once where they can. */
export const immediateSubtle: SubtleCrypto = new Proxy(subtle, {
  get(target, property) {
    switch (property) {
      case 'digest':
        return (algorithm: AlgorithmIdentifier, data: BufferSource) =>
          settled(() => digestNow(algorithm, data), () => target.digest(algorithm, data));
      case 'sign':
        return (algorithm: AlgorithmIdentifier, key: CryptoKey, data: BufferSource) =>
          settled(() => signNow(algorithm, key, data), () => target.sign(algorithm, key, data));
      case 'exportKey':
        return (format: KeyFormat, key: CryptoKey) =>
          format === 'jwk' ? target.exportKey(format, key) : settled(() => exportKeyNow(format, key), () => target.exportKey(format, key));
      default: {
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      }
    }
  },
});

/** `globalThis.crypto` with `immediateSubtle`, for @peculiar/x509's crypto provider. */
export const immediateCrypto: Crypto = new Proxy(globalThis.crypto, {
  get(target, property) {
    if (property === 'subtle') return immediateSubtle;
    const value: unknown = Reflect.get(target, property);
    return typeof value === 'function' ? value.bind(target) : value;
  },
});
