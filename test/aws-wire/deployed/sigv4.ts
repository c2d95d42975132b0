/**
 * AWS Signature Version 4, written from the documented algorithm
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html): the deployed
 * runtime signs its calls to moto with it and checks the signature of every request that reaches
 * an `AWS_IAM` route of the HTTP API. Only the header form (`Authorization: AWS4-HMAC-SHA256 …`)
 * is supported; query-string presigning is not.
 */

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface SignableRequest {
  method: string;
  /** Absolute URL; its path and query are signed as sent. */
  url: string;
  headers: Readonly<Record<string, string>>;
  body: string | Uint8Array;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';

function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

function hmac(key: string | Uint8Array, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

/** RFC 3986 encoding as SigV4 wants it (everything but unreserved characters). */
function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function canonicalQuery(search: string): string {
  const pairs = search
    .replace(/^\?/, '')
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const at = p.indexOf('=');
      const key = decodeURIComponent((at < 0 ? p : p.slice(0, at)).replace(/\+/g, ' '));
      const value = at < 0 ? '' : decodeURIComponent(p.slice(at + 1).replace(/\+/g, ' '));
      return [uriEncode(key), uriEncode(value)] as const;
    });
  pairs.sort(([ak, av], [bk, bv]) => (ak === bk ? (av < bv ? -1 : av > bv ? 1 : 0) : ak < bk ? -1 : 1));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

/** Path segments encoded once more, as every service but S3 expects (S3: as sent). */
function canonicalPath(pathname: string, service: string): string {
  if (service === 's3') return pathname || '/';
  return (pathname || '/')
    .split('/')
    .map((segment) => uriEncode(decodeURIComponent(segment)))
    .join('/');
}

function lowerCaseHeaders(headers: Readonly<Record<string, string>>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) out.set(name.toLowerCase(), value.trim().replace(/\s+/g, ' '));
  return out;
}

function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
}

interface Scope {
  date: string;
  region: string;
  service: string;
}

function signature(request: SignableRequest, signedHeaders: readonly string[], amzDate: string, scope: Scope, secret: string): string {
  const url = new URL(request.url);
  const headers = lowerCaseHeaders(request.headers);
  const canonicalHeaders = signedHeaders.map((name) => `${name}:${headers.get(name) ?? ''}\n`).join('');
  const payloadHash = headers.get('x-amz-content-sha256') ?? sha256Hex(request.body);
  const canonicalRequest = [
    request.method.toUpperCase(),
    canonicalPath(url.pathname, scope.service),
    canonicalQuery(url.search),
    canonicalHeaders,
    signedHeaders.join(';'),
    payloadHash,
  ].join('\n');
  const credentialScope = `${scope.date}/${scope.region}/${scope.service}/aws4_request`;
  const stringToSign = [ALGORITHM, amzDate, credentialScope, sha256Hex(canonicalRequest)].join('\n');
  return createHmac('sha256', signingKey(secret, scope.date, scope.region, scope.service)).update(stringToSign).digest('hex');
}

/** The request's headers plus `host`, `x-amz-date`, the session token and `authorization`. */
export function signRequest(
  request: SignableRequest,
  credentials: Credentials,
  region: string,
  service: string,
  now: Date = new Date(),
): Record<string, string> {
  const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const url = new URL(request.url);
  // A header named like one the signature sets (any case) would be signed and then replaced.
  const kept = Object.entries(request.headers).filter(([name]) => !['authorization', 'host', 'x-amz-date', 'x-amz-security-token', 'x-amz-content-sha256'].includes(name.toLowerCase()));
  const headers: Record<string, string> = { ...Object.fromEntries(kept), host: url.host, 'x-amz-date': amzDate };
  if (credentials.sessionToken) headers['x-amz-security-token'] = credentials.sessionToken;
  if (service === 's3') headers['x-amz-content-sha256'] = sha256Hex(request.body);
  const signedHeaders = [...lowerCaseHeaders(headers).keys()].sort();
  const scope = { date: amzDate.slice(0, 8), region, service };
  const sig = signature({ ...request, headers }, signedHeaders, amzDate, scope, credentials.secretAccessKey);
  headers.authorization = `${ALGORITHM} Credential=${credentials.accessKeyId}/${scope.date}/${region}/${service}/aws4_request, SignedHeaders=${signedHeaders.join(';')}, Signature=${sig}`;
  return headers;
}

export type Verdict = { ok: true; accessKeyId: string } | { ok: false; reason: string };

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

/**
 * Checks a SigV4 `Authorization` header the way API Gateway's IAM authorizer does for the
 * signature part: known access key, scope for this region and service, `host` and `x-amz-date`
 * signed, the date within 15 minutes, and the signature recomputed over the request as received.
 * (Whether the signer's policy allows `execute-api:Invoke` is IAM's part, not checked here.)
 */
export function verifyRequest(
  request: SignableRequest,
  secretFor: (accessKeyId: string) => string | undefined,
  region: string,
  service: string,
  now: Date = new Date(),
): Verdict {
  const headers = lowerCaseHeaders(request.headers);
  const authorization = headers.get('authorization');
  if (!authorization) return { ok: false, reason: 'Missing Authentication Token' };
  const match = AUTHORIZATION.exec(authorization);
  if (!match) return { ok: false, reason: 'Authorization header is not a SigV4 header' };
  const [, accessKeyId = '', date = '', scopeRegion, scopeService, signed = '', given = ''] = match;
  if (scopeRegion !== region || scopeService !== service) return { ok: false, reason: `credential scope ${scopeRegion}/${scopeService} is not ${region}/${service}` };
  const secret = secretFor(accessKeyId);
  if (secret === undefined) return { ok: false, reason: 'The security token included in the request is invalid' };
  const signedHeaders = signed.split(';');
  if (!signedHeaders.includes('host') || !signedHeaders.includes('x-amz-date')) return { ok: false, reason: 'host and x-amz-date must be signed' };
  const amzDate = headers.get('x-amz-date') ?? '';
  const at = Date.parse(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
  if (!amzDate.startsWith(date) || Number.isNaN(at)) return { ok: false, reason: 'x-amz-date does not match the credential scope' };
  if (Math.abs(now.getTime() - at) > 15 * 60_000) return { ok: false, reason: 'Signature expired' };
  const expected = signature(request, signedHeaders, amzDate, { date, region, service }, secret);
  if (!timingSafeEqual(Buffer.from(expected), Buffer.from(given))) return { ok: false, reason: 'The request signature we calculated does not match the signature you provided' };
  return { ok: true, accessKeyId };
}
