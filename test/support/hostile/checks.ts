import type { ApiResponse } from '../../../functions/api/http.js';
import type { KindRegistry } from '../../../shared/contracts/kinds.js';
import type { HostileApi } from './api.js';
import { type HostileRequest, describeRequest } from './model.js';
import { SECRET_NEEDLES } from './seeds.js';

const PROTOTYPES = { 'Object.prototype': Object.prototype, 'Array.prototype': Array.prototype, 'Function.prototype': Function.prototype } as const;
type Baseline = Map<string, Map<PropertyKey, PropertyDescriptor>>;

/** Own properties of the built-in prototypes, to detect (and undo) prototype pollution. */
export function prototypeBaseline(): Baseline {
  const baseline: Baseline = new Map();
  for (const [name, proto] of Object.entries(PROTOTYPES)) {
    baseline.set(name, new Map(Reflect.ownKeys(proto).map((key) => [key, Object.getOwnPropertyDescriptor(proto, key) as PropertyDescriptor])));
  }
  return baseline;
}

/** Pollution since the baseline, undone so one polluting request does not poison the rest of the run. */
export function pollution(baseline: Baseline): string[] {
  const found: string[] = [];
  for (const [name, proto] of Object.entries(PROTOTYPES)) {
    const before = baseline.get(name) as Map<PropertyKey, PropertyDescriptor>;
    for (const key of Reflect.ownKeys(proto)) {
      const was = before.get(key);
      const now = Object.getOwnPropertyDescriptor(proto, key);
      if (!was) {
        found.push(`${name}.${String(key)} added`);
        Reflect.deleteProperty(proto, key);
      } else if (now && (now.value !== was.value || now.get !== was.get || now.set !== was.set)) {
        found.push(`${name}.${String(key)} replaced`);
        Object.defineProperty(proto, key, was);
      }
    }
  }
  return found;
}

/** What happened around one request, for the checks. */
export interface Outcome {
  request: HostileRequest;
  response?: ApiResponse;
  /** Set when the handler did not settle in time or rejected. */
  failure?: string;
  writes: number;
  changes: number;
  polluted: string[];
  /** Over HTTP a HEAD response has no body. */
  http: boolean;
}

const SETTLE_MS = 15_000;

/** Sends one request and records writes, store changes and prototype pollution around it. */
export async function run(api: HostileApi, request: HostileRequest, baseline: Baseline, http = false): Promise<Outcome> {
  const writes = api.store.counts.writes;
  const changes = api.changes();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the handler did not settle within ${SETTLE_MS} ms`)), SETTLE_MS);
  });
  let response: ApiResponse | undefined;
  let failure: string | undefined;
  try {
    response = await Promise.race([http ? api.sendHttp(request) : api.send(request), timeout]);
  } catch (error) {
    failure = `the handler promise rejected or hung: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    clearTimeout(timer);
  }
  const polluted = pollution(baseline);
  return { request, ...(response ? { response } : {}), ...(failure ? { failure } : {}), writes: api.store.counts.writes - writes, changes: api.changes() - changes, polluted, http };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Properties 1-4 for one request; every violation found, not just the first. */
export function violations(outcome: Outcome, kinds: KindRegistry): string[] {
  const found: string[] = [];
  const { request, response } = outcome;
  if (outcome.failure) found.push(outcome.failure);
  if (outcome.polluted.length > 0) found.push(`prototype pollution: ${outcome.polluted.join(', ')}`);
  if (!response) return found;
  const { status, body } = response;
  const ok = status >= 200 && status < 300;
  if (status >= 500) found.push(`${status} server error`);
  if (!ok && !(outcome.http && request.method === 'HEAD')) found.push(...statusShape(status, body));
  if (!ok && outcome.changes > 0) found.push(`a ${status} answer changed the store (${outcome.changes} change(s))`);
  if (ok && isDryRun(request) && request.method !== 'GET' && (outcome.writes > 0 || outcome.changes > 0)) {
    found.push(`a dryRun ${status} wrote to the store (${outcome.writes} write call(s), ${outcome.changes} change(s))`);
  }
  if (request.expect?.clientError && !(status >= 400 && status < 500)) found.push(`expected a 4xx, got ${status}: ${body.slice(0, 160)}`);
  if (request.expect?.noSecret && request.caller !== 'restricted') found.push(...leaks(body));
  found.push(...expectedWatch(request, ok, body));
  if (request.caller === 'restricted') found.push(...secretViolations(request, status, body, kinds));
  return found;
}

const WATCH_EVENT_TYPES = new Set(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

function expectedWatch(request: HostileRequest, ok: boolean, body: string): string[] {
  return request.expect?.watchStream && ok ? watchStreamShape(body) : [];
}

/** A watch's body: newline-terminated JSON events, each `{type, object}` with a known type. */
function watchStreamShape(body: string): string[] {
  if (body !== '' && !body.endsWith('\n')) return [`a watch stream does not end on a whole event: ${body.slice(-120)}`];
  for (const line of body.split('\n').slice(0, -1)) {
    const event = parse(line);
    if (!isObject(event) || typeof event.type !== 'string' || !WATCH_EVENT_TYPES.has(event.type) || !isObject(event.object)) {
      return [`not a watch event: ${line.slice(0, 160)}`];
    }
  }
  return [];
}

function statusShape(status: number, body: string): string[] {
  const doc = parse(body);
  if (!isObject(doc)) return [`a ${status} answer is not a JSON object: ${body.slice(0, 120)}`];
  const found: string[] = [];
  if (doc.kind !== 'Status' || doc.apiVersion !== 'v1' || doc.status !== 'Failure') found.push(`a ${status} answer is not a Failure Status: ${body.slice(0, 160)}`);
  if (doc.code !== status) found.push(`Status.code ${String(doc.code)} differs from HTTP ${status}`);
  if (typeof doc.message !== 'string' || doc.message === '') found.push(`a ${status} Status has no message`);
  if (doc.reason === 'Invalid') {
    const causes = isObject(doc.details) && Array.isArray(doc.details.causes) ? doc.details.causes : [];
    if (!causes.some((c) => isObject(c) && typeof c.field === 'string' && c.field !== '')) {
      found.push(`an Invalid Status names no field in details.causes: ${String(doc.message).slice(0, 160)}`);
    }
  }
  return found;
}

function isDryRun(request: HostileRequest): boolean {
  return new URLSearchParams(request.query).getAll('dryRun').includes('All');
}

/** The secret path a request names, when its path is a well-formed Secret path. */
export function secretTarget(path: string, kinds: KindRegistry): { named: boolean } | undefined {
  const secrets = kinds.get('', 'Secret');
  if (!secrets) return undefined;
  const match = /^\/api\/v1\/(?:namespaces\/([a-z0-9](?:[-a-z0-9]*[a-z0-9])?)\/)?secrets(?:\/([a-z0-9](?:[-a-z0-9.]*[a-z0-9])?))?$/.exec(path);
  if (!match) return undefined;
  const name = match[2];
  // A name the path parser itself refuses (400) may be refused before authorization.
  if (name !== undefined && (match[1] === undefined || name.includes('..') || name.length > 253)) return undefined;
  return { named: match[2] !== undefined };
}

function leaks(body: string): string[] {
  const leaked = SECRET_NEEDLES.filter((needle) => body.includes(needle));
  return leaked.length > 0 ? [`Secret data in the answer: ${leaked.join(', ')}`] : [];
}

/** Property 3: a principal without secrets permissions sees no Secret byte and is refused every verb on a named Secret. */
function secretViolations(request: HostileRequest, status: number, body: string, kinds: KindRegistry): string[] {
  const found = leaks(body);
  const target = secretTarget(request.path, kinds);
  if (!target) return found;
  const verb = ['GET', 'PUT', 'PATCH', 'DELETE'].includes(request.method) && target.named;
  const create = request.method === 'POST' && !target.named;
  if ((verb || create) && status !== 403) found.push(`${request.method} on ${target.named ? 'a named Secret' : 'the Secret collection'} answered ${status}, not 403`);
  if (request.method === 'GET' && !target.named && status === 200) {
    const doc = parse(body);
    const items = isObject(doc) && Array.isArray(doc.items) ? doc.items : [];
    if (items.some((item) => isObject(item) && ('data' in item || 'stringData' in item))) found.push('a Secret list carries data');
  }
  return found;
}

export function report(outcome: Outcome, found: string[]): string {
  const answer = outcome.response ? `${outcome.response.status} ${outcome.response.body.slice(0, 300)}` : 'no answer';
  return `${describeRequest(outcome.request)}\n  -> ${answer}\n  violations:\n   - ${found.join('\n   - ')}`;
}
