/** clientConfig → the URLs the hook client calls (Cluster API urlForExtension), and what is refused. */

import { describe, expect, it } from 'vitest';
import { handlerUrl, resolveClientConfig } from '../../../../functions/reconcile/runtime/client-config.js';

const PEM_NOT_CERT = Buffer.from('-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n').toString('base64');

describe('resolveClientConfig', () => {
  it.each<[string, unknown, string]>([
    ['a url with a path', { url: 'https://ext.example:9443/base/' }, 'https://ext.example:9443/base/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclusterupgrade/gate?timeout=10s'],
    ['a service with port and path', { service: { name: 'svc', namespace: 'ns', port: 8443, path: '/p' } }, 'https://svc.ns.svc:8443/p/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclusterupgrade/gate?timeout=10s'],
    ['a service without port', { service: { name: 'svc', namespace: 'ns' } }, 'https://svc.ns.svc/hooks.runtime.cluster.x-k8s.io/v1alpha1/beforeclusterupgrade/gate?timeout=10s'],
  ])('%s', (_name, clientConfig, url) => {
    const resolved = resolveClientConfig(clientConfig);
    expect(resolved.ok && handlerUrl(resolved.config, 'BeforeClusterUpgrade', 'gate', 10)).toBe(url);
  });

  it.each<[number, string]>([
    [0, 'https://e.example/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery'],
    [30, 'https://e.example/hooks.runtime.cluster.x-k8s.io/v1alpha1/discovery?timeout=30s'],
  ])('timeout %i s on the URL as a Go duration (none for 0)', (timeout, url) => {
    const resolved = resolveClientConfig({ url: 'https://e.example' });
    expect(resolved.ok && handlerUrl(resolved.config, 'Discovery', undefined, timeout)).toBe(url);
  });

  it.each<[string, unknown, RegExp]>([
    ['http', { url: 'http://e.example' }, /expected https scheme, got http/],
    ['neither url nor service', {}, /at least one of service and url/],
    ['a URL that does not parse', { url: 'not a url' }, /failed to parse url/],
    ['a caBundle that is not PEM', { url: 'https://e.example', caBundle: Buffer.from('hello').toString('base64') }, /not a PEM-encoded certificate bundle/],
    ['a PEM block that is not a certificate', { url: 'https://e.example', caBundle: PEM_NOT_CERT }, /not a valid X\.509 certificate/],
  ])('refuses %s', (_name, clientConfig, message) => {
    const resolved = resolveClientConfig(clientConfig);
    expect(resolved.ok).toBe(false);
    expect(!resolved.ok && resolved.message).toMatch(message);
  });
});
