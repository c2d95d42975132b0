import { request as httpRequest } from 'node:http';
import { type ApiDeps, handleApiRequest } from '../../../functions/api/api.js';
import { bearerTokenAuthenticator } from '../../../functions/api/auth.js';
import type { ApiRequest, ApiResponse } from '../../../functions/api/http.js';
import { pathAdmission } from '../../../functions/api/path-admission.js';
import { KindRegistry } from '../../../shared/contracts/kinds.js';
import type { KubeObject, StoredObject } from '../../../shared/contracts/object.js';
import { silentLogger } from '../../../shared/ports/logger.js';
import { builtinProviderLookup } from '../../../shared/contracts/providers/builtin-lookup.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { WatchHub } from '../../../functions/api/watch/watch-hub.js';
import { ChangeLog } from '../../../shared/watch/change-log.js';
import { listen } from '../../../local/http-server.js';
import { TEST_TOKEN } from '../api-server.js';
import { CountingStore } from '../counting-store.js';
import { type HostileRequest, type Tokens, overlayOnto, toApiRequest } from './model.js';
import { SEED_OBJECTS, type SeedRef, seedRefs } from './seeds.js';

export const RESTRICTED_TOKEN = 'capless-restricted-token-fedcba9876543210fedcba98';

/**
 * The management API the hostile suite attacks: the same wiring as startTestApi (api-server.ts),
 * but with two principals on one handler (the admin and one without any Secret permission), a
 * write-counting store and a change counter, served over plain HTTP for the transport sample.
 */
export interface HostileApi {
  url: string;
  tokens: Tokens;
  kinds: KindRegistry;
  memory: MemoryObjectStore;
  store: CountingStore;
  /** Store changes (INSERT/MODIFY/REMOVE) so far. */
  changes(): number;
  handle(request: ApiRequest): Promise<ApiResponse>;
  /** Resolves a request's body (a CurrentBody reads the stored object at its path). */
  bodyOf(r: HostileRequest): Promise<string>;
  /** In-process call of the handler. */
  send(r: HostileRequest): Promise<ApiResponse>;
  /** The same request over real HTTP, the path sent byte for byte as `wirePath`. */
  sendHttp(r: HostileRequest): Promise<ApiResponse>;
  /** Puts the seeds back if a request removed or changed them (before a run, never inside a check). */
  restoreSeeds(): Promise<void>;
  seeds: SeedRef[];
  close(): Promise<void>;
}

export async function startHostileApi(): Promise<HostileApi> {
  const memory = new MemoryObjectStore();
  const store = new CountingStore(memory);
  let changes = 0;
  memory.onChange(() => changes++);
  const kinds = new KindRegistry();
  const deps: ApiDeps = {
    store,
    kinds,
    admission: pathAdmission(kinds, builtinProviderLookup),
    authenticate: bearerTokenAuthenticator([
      { token: TEST_TOKEN, principal: { name: 'test-admin', canReadSecrets: true, canWriteSecrets: true } },
      { token: RESTRICTED_TOKEN, principal: { name: 'no-secrets', canReadSecrets: false, canWriteSecrets: false } },
    ]),
    logger: silentLogger,
    // Watches end within a second so the HTTP sample's reads finish; in-process ones are read and cancelled at once.
    watches: new WatchHub(new ChangeLog(memory), { maxTimeoutSeconds: 1 }),
  };
  const handle = (request: ApiRequest) => handleApiRequest(request, deps);
  const server = await listen(handle, { host: '127.0.0.1', port: 0 });
  const tokens: Tokens = { admin: TEST_TOKEN, restricted: RESTRICTED_TOKEN };
  const refs = seedRefs(kinds);

  const bodyOf = async (r: HostileRequest): Promise<string> => {
    if (typeof r.body === 'string') return r.body;
    const current = await currentAt(memory, kinds, r.path);
    return JSON.stringify(overlayOnto(current ?? {}, r.body.overlay));
  };

  for (const [index, object] of SEED_OBJECTS.entries()) {
    const ref = refs[index];
    const response = await handle({ ...adminRequest('POST', ref?.collection ?? ''), body: JSON.stringify(object) });
    if (response.status !== 201) throw new Error(`seeding ${object.kind}: ${response.status} ${response.body}`);
  }
  const originals = new Map<string, StoredObject>();
  for (const ref of refs) {
    const stored = await memory.get(ref.key);
    if (!stored) throw new Error(`seed ${ref.key.name} missing`);
    originals.set(ref.path, stored);
  }

  return {
    url: server.url,
    tokens,
    kinds,
    memory,
    store,
    seeds: refs,
    changes: () => changes,
    handle,
    bodyOf,
    send: async (r) => readOnce(await handle(toApiRequest(r, tokens, await bodyOf(r)))),
    sendHttp: async (r) => overHttp(server.url, toApiRequest(r, tokens, await bodyOf(r)), r.wirePath ?? encodePath(r.path)),
    async restoreSeeds() {
      for (const ref of refs) {
        const original = originals.get(ref.path) as StoredObject;
        const stored = await memory.get(ref.key);
        if (!stored) await memory.create(stripServerFields(original));
        else if (ref.kind === 'Secret' && JSON.stringify(stored.data) !== JSON.stringify(original.data)) {
          await memory.update({ ...stored, data: original.data });
        }
      }
    },
    close: async () => {
      deps.watches?.close();
      deps.watches?.log.close();
      await server.close();
    },
  };
}

/** A watch's answer as its first events: what the stream writes at once, then the watch is cancelled. */
function readOnce(response: ApiResponse): ApiResponse {
  const { stream, ...rest } = response;
  if (!stream) return response;
  let body = '';
  const write = (chunk: string): boolean => {
    body += chunk;
    return true;
  };
  stream.start({ write, end: () => {} });
  stream.cancel();
  return { ...rest, body };
}

function adminRequest(method: string, path: string): ApiRequest {
  return { method, path, query: new URLSearchParams(), headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' }, body: '' };
}

function stripServerFields(object: StoredObject): KubeObject {
  const { uid: _uid, resourceVersion: _rv, generation: _g, creationTimestamp: _c, deletionTimestamp: _d, ...metadata } = object.metadata;
  return { ...object, metadata };
}

/** The object a named resource path points at, if the path parses and it exists. */
async function currentAt(memory: MemoryObjectStore, kinds: KindRegistry, path: string): Promise<StoredObject | undefined> {
  const match = /^\/(?:api\/[^/]+|apis\/([^/]+)\/[^/]+)\/namespaces\/([^/]+)\/([^/]+)\/([^/]+)/.exec(path);
  if (!match) return undefined;
  const info = kinds.byResource(match[1] ?? '', match[3] ?? '');
  if (!info) return undefined;
  return memory.get({ group: info.group, kind: info.kind, namespace: match[2] ?? '', name: match[4] ?? '' });
}

/** Percent-encodes each segment's UTF-8 bytes (lone surrogates, which encodeURIComponent throws on, become U+FFFD). */
function encodePath(path: string): string {
  const unreserved = /^[A-Za-z0-9\-._~]$/;
  const encode = (segment: string) => [...Buffer.from(segment, 'utf8')].map((byte) => (unreserved.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
  return path.split('/').map(encode).join('/');
}

/** node:http rather than fetch: fetch normalizes `%2e%2e` away and refuses bodies on GET/HEAD. */
function overHttp(url: string, request: ApiRequest, wirePath: string): Promise<ApiResponse> {
  const { hostname, port } = new URL(url);
  const query = request.query.toString();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers[name] = value;
  const body = Buffer.from(request.body, 'utf8');
  if (body.length > 0) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, method: request.method, path: `${wirePath}${query ? `?${query}` : ''}`, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const responseHeaders: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') responseHeaders[name] = value;
        resolve({ status: res.statusCode ?? 0, headers: responseHeaders, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body.length > 0 ? body : undefined);
  });
}
