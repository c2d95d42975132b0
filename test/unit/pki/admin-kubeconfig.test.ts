import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import {
  apiServerUrl,
  buildAdminKubeconfig,
  generateBootstrapToken,
  generateCertificateAuthority,
  issueClientCertificate,
  parseBootstrapToken,
} from '../../../shared/pki/index.js';
import { openssl, pathOf, writeTempFiles } from './openssl.js';

const now = new Date('2026-06-01T12:00:00Z');

describe('buildAdminKubeconfig', () => {
  it('names cluster, user and context like Cluster API, and its client cert chains to the CA', async () => {
    const ca = await generateCertificateAuthority({ algorithm: 'ECDSA-P256', now });
    const client = await issueClientCertificate({ ca, now, algorithm: 'ECDSA-P256' });
    const text = buildAdminKubeconfig({
      clusterName: 'demo',
      server: apiServerUrl('demo-apiserver.example.com', 6443),
      caPem: ca.certPem,
      clientCertPem: client.certPem,
      clientKeyPem: client.keyPem,
    });
    const config = new KubeConfig();
    config.loadFromString(text);
    expect(config.getCurrentContext()).toBe('demo-admin@demo');
    expect(config.getCurrentCluster()?.name).toBe('demo');
    expect(config.getCurrentCluster()?.server).toBe('https://demo-apiserver.example.com:6443');
    expect(config.getCurrentUser()?.name).toBe('demo-admin');

    const decode = (b64: string | undefined) => Buffer.from(b64 ?? '', 'base64').toString('utf8');
    const caPem = decode(config.getCurrentCluster()?.caData);
    const certPem = decode(config.getCurrentUser()?.certData);
    expect(decode(config.getCurrentUser()?.keyData)).toBe(client.keyPem);
    const files = writeTempFiles({ 'ca.crt': caPem, 'client.crt': certPem });
    expect(openssl(['verify', '-CAfile', pathOf(files, 'ca.crt'), pathOf(files, 'client.crt')])).toContain(': OK');
    expect(openssl(['x509', '-noout', '-subject'], certPem)).toContain('O = system:masters, CN = kubernetes-admin');
  });

  it.each([
    ['10.0.0.1', 6443, 'https://10.0.0.1:6443'],
    ['fd00::1', 443, 'https://[fd00::1]:443'],
    ['api.example.com', 8443, 'https://api.example.com:8443'],
  ])('apiServerUrl(%s, %d) = %s', (host, port, url) => {
    expect(apiServerUrl(host, port)).toBe(url);
  });
});

describe('generateBootstrapToken', () => {
  it('matches [a-z0-9]{6}.[a-z0-9]{16} and differs between calls', () => {
    const tokens = Array.from({ length: 20 }, generateBootstrapToken);
    for (const token of tokens) expect(token).toMatch(/^[a-z0-9]{6}\.[a-z0-9]{16}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it.each([
    ['abcdef.0123456789abcdef', { id: 'abcdef', secret: '0123456789abcdef' }],
    ['ABCDEF.0123456789abcdef', undefined],
    ['abcdef0123456789abcdef', undefined],
    ['abcde.0123456789abcdef', undefined],
  ])('parseBootstrapToken(%s)', (token, expected) => {
    expect(parseBootstrapToken(token)).toEqual(expected);
  });
});
