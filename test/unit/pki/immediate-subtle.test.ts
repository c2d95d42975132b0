import { webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { immediateSubtle } from '../../../shared/pki/immediate-subtle.js';

const subtle = webcrypto.subtle;
const data = new TextEncoder().encode('tbsCertificate');

/** True when `promise` settles before the event loop's next turn (no thread-pool hop). */
async function settlesAtOnce(promise: Promise<unknown>): Promise<boolean> {
  let turned = false;
  setImmediate(() => {
    turned = true;
  });
  await promise;
  return !turned;
}

describe('immediateSubtle', () => {
  it.each([
    { name: 'ECDSA P-256', generate: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } },
    { name: 'ECDSA P-384', generate: { name: 'ECDSA', namedCurve: 'P-384' }, sign: { name: 'ECDSA', hash: { name: 'SHA-384' } } },
    {
      name: 'RSA-2048',
      generate: { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      sign: { name: 'RSASSA-PKCS1-v1_5' },
    },
  ])('$name: signs at once, and WebCrypto verifies the signature', async ({ generate, sign }) => {
    const keys = await subtle.generateKey(generate, true, ['sign', 'verify']);
    const signing = immediateSubtle.sign(sign, keys.privateKey, data);
    expect(await settlesAtOnce(signing)).toBe(true);
    expect(await subtle.verify(sign, keys.publicKey, await signing, data)).toBe(true);
  });

  it.each(['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512', { name: 'SHA-256' }])('digest %j equals WebCrypto’s, at once', async (algorithm) => {
    const digest = immediateSubtle.digest(algorithm, data);
    expect(await settlesAtOnce(digest)).toBe(true);
    expect(Buffer.from(await digest)).toEqual(Buffer.from(await subtle.digest(algorithm, data)));
  });

  it.each([
    { format: 'spki' as const, key: (k: CryptoKeyPair) => k.publicKey },
    { format: 'pkcs8' as const, key: (k: CryptoKeyPair) => k.privateKey },
  ])('exportKey $format equals WebCrypto’s, at once', async ({ format, key }) => {
    const keys = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    const exported = immediateSubtle.exportKey(format, key(keys));
    expect(await settlesAtOnce(exported)).toBe(true);
    expect(Buffer.from(await exported)).toEqual(Buffer.from(await subtle.exportKey(format, key(keys))));
  });

  it.each([
    {
      name: 'a non-extractable key is not exported',
      run: async () => {
        const keys = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
        return immediateSubtle.exportKey('pkcs8', keys.privateKey);
      },
    },
    {
      name: 'a public key does not sign',
      run: async () => {
        const keys = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
        return immediateSubtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.publicKey, data);
      },
    },
    {
      name: 'a key without the sign usage does not sign',
      run: async () => {
        const keys = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify']);
        return immediateSubtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, data);
      },
    },
    { name: 'an unknown digest is refused', run: () => immediateSubtle.digest('MD5', data) },
  ])('leaves what it does not accept to WebCrypto, with its error: $name', async ({ run }) => {
    await expect(run()).rejects.toThrow();
  });

  it('passes every other operation to WebCrypto (HMAC sign, verify)', async () => {
    const key = await immediateSubtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, true, ['sign', 'verify']);
    const mac = await immediateSubtle.sign('HMAC', key, data);
    expect(await immediateSubtle.verify('HMAC', key, mac, data)).toBe(true);
    expect(Buffer.from(mac)).toEqual(Buffer.from(await subtle.sign('HMAC', key, data)));
  });
});
