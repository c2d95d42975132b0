import { execFileSync } from 'node:child_process';
import { createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  caCertHash,
  caCertHashes,
  generateCertificateAuthority,
  generateClusterCertificates,
  generateServiceAccountKeyPair,
  issueClientCertificate,
  type KeyAlgorithm,
} from '../../../shared/pki/index.js';
import { openssl, pathOf, writeTempFiles } from './openssl.js';

const now = new Date('2026-06-01T12:00:00Z');

describe('generateCertificateAuthority', () => {
  it.each<[KeyAlgorithm, RegExp, string]>([
    ['RSA-2048', /-----BEGIN RSA PRIVATE KEY-----/, 'Public-Key: (2048 bit)'],
    ['ECDSA-P256', /-----BEGIN EC PRIVATE KEY-----/, 'NIST CURVE: P-256'],
    ['ECDSA-P384', /-----BEGIN EC PRIVATE KEY-----/, 'NIST CURVE: P-384'],
  ])('%s: a self-signed CA openssl accepts, with the key PEM kubeadm expects', async (algorithm, keyHeader, keyText) => {
    const ca = await generateCertificateAuthority({ algorithm, now });
    expect(ca.keyPem).toMatch(keyHeader);
    const text = openssl(['x509', '-noout', '-text'], ca.certPem);
    expect(text).toContain('Subject: CN = kubernetes');
    expect(text).toContain('Issuer: CN = kubernetes');
    expect(text).toMatch(/Basic Constraints: critical\s+CA:TRUE, pathlen:0/);
    expect(text).toMatch(/Key Usage: critical\s+Digital Signature, Key Encipherment, Certificate Sign/);
    expect(text).toContain(keyText);
    const files = writeTempFiles({ 'ca.crt': ca.certPem, 'ca.key': ca.keyPem });
    expect(openssl(['verify', '-CAfile', pathOf(files, 'ca.crt'), pathOf(files, 'ca.crt')])).toContain(': OK');
    // the key matches the certificate
    const certPub = openssl(['x509', '-noout', '-pubkey'], ca.certPem);
    const keyPub = openssl(['pkey', '-pubout', '-in', pathOf(files, 'ca.key')]);
    expect(keyPub).toBe(certPub);
  });

  it('uses notBefore = now - 5 min and notAfter = now + validityDays', async () => {
    const ca = await generateCertificateAuthority({ algorithm: 'ECDSA-P256', validityDays: 30, now, commonName: 'etcd-ca' });
    const cert = new X509Certificate(ca.certPem);
    expect(new Date(cert.validFrom).toISOString()).toBe('2026-06-01T11:55:00.000Z');
    expect(new Date(cert.validTo).toISOString()).toBe('2026-07-01T12:00:00.000Z');
    expect(cert.subject).toBe('CN=etcd-ca');
    expect(cert.ca).toBe(true);
  });
});

describe('issueClientCertificate', () => {
  it.each<KeyAlgorithm>(['RSA-2048', 'ECDSA-P256', 'ECDSA-P384'])(
    'issues a kubernetes-admin client certificate that chains to the CA (%s CA)',
    async (algorithm) => {
      const ca = await generateCertificateAuthority({ algorithm, now });
      const client = await issueClientCertificate({ ca, now, algorithm: 'ECDSA-P256' });
      const files = writeTempFiles({ 'ca.crt': ca.certPem, 'client.crt': client.certPem });
      expect(openssl(['verify', '-CAfile', pathOf(files, 'ca.crt'), pathOf(files, 'client.crt')])).toContain(
        'client.crt: OK',
      );
      const text = openssl(['x509', '-noout', '-text'], client.certPem);
      expect(text).toMatch(/Subject: CN = kubernetes-admin, O = system:masters|Subject: O = system:masters, CN = kubernetes-admin/);
      expect(text).toMatch(/Extended Key Usage:\s+TLS Web Client Authentication/);
      expect(text).toMatch(/Key Usage: critical\s+Digital Signature, Key Encipherment/);
      expect(text).not.toContain('CA:TRUE');
      expect(client.keyPem).toMatch(/-----BEGIN EC PRIVATE KEY-----/);
      const cert = new X509Certificate(client.certPem);
      expect(cert.validFrom).toBe(new X509Certificate(ca.certPem).validFrom);
      expect(new Date(cert.validTo).toISOString()).toBe('2027-06-01T12:00:00.000Z');
      expect(BigInt(`0x${cert.serialNumber}`) < 2n ** 63n).toBe(true);
    },
  );

  it.each<KeyAlgorithm>(['RSA-2048', 'ECDSA-P256'])('signs with a CA key given as PKCS#8 (a CA brought in a Secret, %s)', async (algorithm) => {
    const ca = await generateCertificateAuthority({ algorithm, now });
    const pkcs8 = createPrivateKey(ca.keyPem).export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(pkcs8).toMatch(/-----BEGIN PRIVATE KEY-----/);
    const client = await issueClientCertificate({ ca: { ...ca, keyPem: pkcs8 }, now, algorithm: 'ECDSA-P256' });
    const files = writeTempFiles({ 'ca.crt': ca.certPem, 'client.crt': client.certPem });
    expect(openssl(['verify', '-CAfile', pathOf(files, 'ca.crt'), pathOf(files, 'client.crt')])).toContain('client.crt: OK');
  });

  it.each<[string, string, RegExp]>([
    ['Ed25519', generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), /unsupported private key: ed25519 \(/],
    ['RSA-1024', generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(), /unsupported private key: rsa 1024 bits/],
    ['ECDSA-P521', generateKeyPairSync('ec', { namedCurve: 'secp521r1' }).privateKey.export({ type: 'sec1', format: 'pem' }).toString(), /unsupported private key: ec secp521r1/],
  ])('refuses a CA key of a kind kubeadm does not use (%s)', async (_kind, keyPem, message) => {
    const ca = await generateCertificateAuthority({ algorithm: 'ECDSA-P256', now });
    await expect(issueClientCertificate({ ca: { ...ca, keyPem }, now })).rejects.toThrow(message);
  });

  it('a certificate from another CA does not verify (the check can fail)', async () => {
    const [ca, other] = await Promise.all([
      generateCertificateAuthority({ algorithm: 'ECDSA-P256', now }),
      generateCertificateAuthority({ algorithm: 'ECDSA-P256', now }),
    ]);
    const client = await issueClientCertificate({ ca: other, now, algorithm: 'ECDSA-P256' });
    const files = writeTempFiles({ 'ca.crt': ca.certPem, 'client.crt': client.certPem });
    expect(() =>
      execFileSync('openssl', ['verify', '-CAfile', pathOf(files, 'ca.crt'), pathOf(files, 'client.crt')], {
        stdio: 'pipe',
      }),
    ).toThrow();
  });
});

describe('caCertHash', () => {
  it('equals the openssl pipeline x509 -pubkey | pkey -pubin -outform DER | sha256', async () => {
    const ca = await generateCertificateAuthority({ algorithm: 'RSA-2048', now });
    const files = writeTempFiles({ 'ca.crt': ca.certPem });
    const pipeline = execFileSync(
      'sh',
      ['-c', `openssl x509 -pubkey -noout -in ${pathOf(files, 'ca.crt')} | openssl pkey -pubin -outform DER | sha256sum`],
      { encoding: 'utf8' },
    );
    const hex = pipeline.split(' ')[0];
    expect(caCertHash(ca.certPem)).toBe(`sha256:${hex}`);
    expect(caCertHash(ca.certPem)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('hashes every certificate of a bundle, in order', async () => {
    const [a, b] = await Promise.all([
      generateCertificateAuthority({ algorithm: 'ECDSA-P256', now }),
      generateCertificateAuthority({ algorithm: 'ECDSA-P256', now }),
    ]);
    expect(caCertHashes(a.certPem + b.certPem)).toEqual([caCertHash(a.certPem), caCertHash(b.certPem)]);
    expect(() => caCertHashes('not a certificate')).toThrow(/no PEM certificate/);
  });
});

describe('generateServiceAccountKeyPair', () => {
  it.each<[KeyAlgorithm, string]>([
    ['RSA-2048', 'RSA PRIVATE KEY'],
    ['ECDSA-P256', 'EC PRIVATE KEY'],
  ])('%s: PKIX public key matching the private key', async (algorithm, label) => {
    const pair = await generateServiceAccountKeyPair(algorithm);
    expect(pair.publicKeyPem.startsWith('-----BEGIN PUBLIC KEY-----\n')).toBe(true);
    expect(pair.privateKeyPem.startsWith(`-----BEGIN ${label}-----\n`)).toBe(true);
    const files = writeTempFiles({ 'sa.key': pair.privateKeyPem });
    expect(openssl(['pkey', '-pubout', '-in', pathOf(files, 'sa.key')])).toBe(pair.publicKeyPem);
  });
});

describe('generateClusterCertificates', () => {
  it('returns the four Secrets <cluster>-ca, -etcd, -proxy, -sa with tls.crt and tls.key', async () => {
    const { certificates, secrets } = await generateClusterCertificates('demo', { algorithm: 'ECDSA-P256', now });
    expect(secrets.map((s) => s.name)).toEqual(['demo-ca', 'demo-etcd', 'demo-proxy', 'demo-sa']);
    for (const purpose of ['ca', 'etcd', 'proxy'] as const) {
      const text = openssl(['x509', '-noout', '-text'], certificates[purpose]['tls.crt']);
      expect(text).toContain('CA:TRUE, pathlen:0');
      expect(certificates[purpose]['tls.key']).toMatch(/EC PRIVATE KEY/);
    }
    expect(certificates.sa['tls.crt']).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    // three distinct CAs
    const hashes = new Set([certificates.ca, certificates.etcd, certificates.proxy].map((c) => caCertHash(c['tls.crt'])));
    expect(hashes.size).toBe(3);
  });
});

