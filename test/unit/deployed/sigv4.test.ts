import { describe, expect, it } from 'vitest';
import { signRequest, verifyRequest } from '../../aws-wire/deployed/sigv4.js';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const at = new Date('2026-11-30T14:38:18Z');
const request = {
  method: 'POST',
  url: 'https://abc123.execute-api.us-east-1.amazonaws.com/apis/cluster.x-k8s.io/v1beta2/namespaces/default/clusters?labelSelector=a%3Db&dryRun=All',
  headers: { 'content-type': 'application/json' },
  body: '{"kind":"Cluster"}',
};
const secretFor = (id: string) => (id === credentials.accessKeyId ? credentials.secretAccessKey : undefined);

describe('SigV4', () => {
  it("signs as botocore's SigV4Auth does (reference signature computed with botocore for this request)", () => {
    const headers = signRequest(request, credentials, 'us-east-1', 'execute-api', at);
    expect(headers['x-amz-date']).toBe('20261130T143818Z');
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261130/us-east-1/execute-api/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=63418fddef57a3c94009bb1c5c00325487cdec9f5832cecb309dedb1d98e2bc8',
    );
  });

  it('accepts its own signature', () => {
    const headers = signRequest(request, credentials, 'us-east-1', 'execute-api', at);
    expect(verifyRequest({ ...request, headers }, secretFor, 'us-east-1', 'execute-api', at)).toEqual({ ok: true, accessKeyId: 'AKIDEXAMPLE' });
  });

  const signed = signRequest(request, credentials, 'us-east-1', 'execute-api', at);
  it.each([
    ['an unsigned request', { ...request }, 'Missing Authentication Token'],
    ['a changed body', { ...request, headers: signed, body: '{"kind":"Machine"}' }, 'signature we calculated does not match'],
    ['a changed path', { ...request, headers: signed, url: request.url.replace('default', 'kube-system') }, 'signature we calculated does not match'],
    ['an unknown key', { ...request, headers: { ...signed, authorization: signed.authorization?.replace('AKIDEXAMPLE', 'AKIDOTHER') ?? '' } }, 'security token'],
    ['another service', { ...request, headers: { ...signed, authorization: signed.authorization?.replace('execute-api', 'sqs') ?? '' } }, 'credential scope'],
  ])('refuses %s', (_what, candidate, reason) => {
    const verdict = verifyRequest(candidate, secretFor, 'us-east-1', 'execute-api', at);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? '' : verdict.reason).toContain(reason);
  });

  it('refuses a signature older than 15 minutes', () => {
    const later = new Date(at.getTime() + 16 * 60_000);
    expect(verifyRequest({ ...request, headers: signed }, secretFor, 'us-east-1', 'execute-api', later)).toEqual({ ok: false, reason: 'Signature expired' });
  });
});

describe('SigV4 over headers the caller already set', () => {
  it('replaces an Authorization header instead of signing it', () => {
    const headers = signRequest({ ...request, headers: { ...request.headers, Authorization: 'Bearer ' } }, credentials, 'us-east-1', 'execute-api', at);
    expect(verifyRequest({ ...request, headers }, secretFor, 'us-east-1', 'execute-api', at).ok).toBe(true);
    expect(Object.keys(headers).filter((name) => name.toLowerCase() === 'authorization')).toEqual(['authorization']);
  });
});
