import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isWatch } from '../../functions/api/watch/watch-options.js';
import { FORWARDED_AUTHORIZATION_HEADER } from '../../functions/watch/watch-authentication.js';
import { WATCH_ORIGIN_ID, WATCH_ROUTER_CODE_PATH } from '../../lib/stacks/api/front-door/api-front-door.js';

/**
 * The front door's viewer-request function (ADR 0125), the very file CloudFront runs, evaluated
 * in Node with a fake `cloudfront` module: which requests go to the watch origin, and what
 * becomes of their Authorization header.
 */
interface QueryValue {
  value: string;
  multiValue?: Array<{ value: string }>;
}
interface ViewerRequest {
  method: string;
  uri: string;
  querystring: Record<string, QueryValue>;
  headers: Record<string, { value: string }>;
}

function loadRouter(): { handle: (request: ViewerRequest) => ViewerRequest; selected: string[] } {
  const source = readFileSync(WATCH_ROUTER_CODE_PATH, 'utf8');
  const importLine = "import cf from 'cloudfront';";
  expect(source.startsWith(importLine)).toBe(true);
  const selected: string[] = [];
  const cf = { selectRequestOriginById: (id: string) => selected.push(id) };
  const build = new Function('cf', `${source.slice(importLine.length)}\nreturn handler;`);
  const handler = build(cf) as (event: { request: ViewerRequest }) => ViewerRequest;
  return { handle: (request) => handler({ request }), selected };
}

/** A query string as CloudFront Functions present it (one `value`, and `multiValue` when repeated). */
function querystring(query: string): Record<string, QueryValue> {
  const params = new URLSearchParams(query);
  const result: Record<string, QueryValue> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    result[name] = { value: values[0] ?? '', ...(values.length > 1 ? { multiValue: values.map((value) => ({ value })) } : {}) };
  }
  return result;
}

function viewerRequest(query: string, headers: Record<string, string> = {}): ViewerRequest {
  return {
    method: 'GET',
    uri: '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/clusters',
    querystring: querystring(query),
    headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, { value }])),
  };
}

describe('the watch router (CloudFront Function)', () => {
  it.each([
    ['watch=true', true],
    ['watch=1', true],
    ['watch=true&resourceVersion=12&allowWatchBookmarks=true', true],
    ['labelSelector=a%3Db&watch=1&timeoutSeconds=300', true],
    ['watch=false&watch=true', true],
    ['watch=false', false],
    ['watch=0', false],
    ['watch=', false],
    ['', false],
    ['limit=500&continue=abc', false],
    ['watchy=true', false],
  ])('%s → watch origin: %s, as the API reads the query', (query, routed) => {
    const router = loadRouter();
    router.handle(viewerRequest(query));
    expect(router.selected).toEqual(routed ? [WATCH_ORIGIN_ID] : []);
    expect(isWatch(new URLSearchParams(query))).toBe(routed);
  });

  it.each<[string, string, Record<string, string>, Record<string, string>]>([
    ['a watch copies the bearer token beside Authorization', 'watch=true', { authorization: 'Bearer t0k' }, { authorization: 'Bearer t0k', [FORWARDED_AUTHORIZATION_HEADER]: 'Bearer t0k' }],
    ['a watch replaces a forwarded header the viewer set itself', 'watch=1', { authorization: 'Bearer mine', [FORWARDED_AUTHORIZATION_HEADER]: 'Bearer forged' }, { authorization: 'Bearer mine', [FORWARDED_AUTHORIZATION_HEADER]: 'Bearer mine' }],
    ['a watch without Authorization forwards none', 'watch=true', { [FORWARDED_AUTHORIZATION_HEADER]: 'Bearer forged' }, {}],
    ['a request to the API is left as it came', 'limit=10', { authorization: 'Bearer t0k', accept: 'application/json' }, { authorization: 'Bearer t0k', accept: 'application/json' }],
  ])('%s', (_case, query, headers, expected) => {
    const out = loadRouter().handle(viewerRequest(query, headers));
    expect(Object.fromEntries(Object.entries(out.headers).map(([name, header]) => [name, header.value]))).toEqual(expected);
  });

  it('keeps the method, path and query of every request', () => {
    const request = viewerRequest('watch=true&resourceVersion=7');
    const out = loadRouter().handle(structuredClone(request));
    expect({ method: out.method, uri: out.uri, querystring: out.querystring }).toEqual({ method: request.method, uri: request.uri, querystring: request.querystring });
  });
});
