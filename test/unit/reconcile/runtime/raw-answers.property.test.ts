/**
 * Property at the wire: whatever bytes and status codes extensions send back, the hook client
 * (decode + failurePolicy + aggregation over a fake transport) passes a blocking hook only when
 * every handler answered HTTP 200 with a well-formed `status: Success` and `retryAfterSeconds: 0`
 * (or sent a transport-level error under failurePolicy Ignore).
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StoreHookClient } from '../../../../functions/reconcile/runtime/hook-client/store-hook-client.js';
import type { ExtensionPost, ExtensionReply, ExtensionTransport } from '../../../../shared/ports/runtime-extensions.js';
import { ExtensionTransportError } from '../../../../shared/ports/runtime-extensions.js';
import { MemoryObjectStore } from '../../../../shared/store/memory-store.js';

type Raw = { kind: 'reply'; status: number; body: string } | { kind: 'error' };

const bodyArb: fc.Arbitrary<string> = fc.oneof(
  fc.record({
    status: fc.constantFrom('Success', 'Failure', 'Pending', '', 'success'),
    retryAfterSeconds: fc.oneof(fc.constant(0), fc.integer({ min: -5, max: 5 }), fc.constant(2147483648), fc.constant(1.5), fc.constant('5')),
    message: fc.string({ maxLength: 5 }),
  }, { requiredKeys: [] }).map((o) => JSON.stringify(o)),
  fc.constantFrom('', 'not json', 'null', '[]', '"Success"', '{"status":"Success","retryAfterSeconds":0}'),
);

const rawArb: fc.Arbitrary<Raw> = fc.oneof(
  fc.record({ kind: fc.constant('reply' as const), status: fc.constantFrom(200, 200, 200, 500, 302, 404), body: bodyArb }),
  fc.constant({ kind: 'error' as const }),
);

/** The one raw answer that lets a handler pass on its own. */
function passes(raw: Raw, policy: 'Fail' | 'Ignore'): boolean {
  if (raw.kind === 'error') return policy === 'Ignore';
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.body);
  } catch {
    return policy === 'Ignore';
  }
  if (raw.status !== 200) return policy === 'Ignore';
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
  const status = Reflect.get(parsed, 'status');
  const retry = Reflect.get(parsed, 'retryAfterSeconds');
  return status === 'Success' && (retry === undefined || retry === 0);
}

class ScriptedTransport implements ExtensionTransport {
  constructor(private readonly answers: Map<string, Raw>) {}
  async post(call: ExtensionPost): Promise<ExtensionReply> {
    const ext = new URL(call.url).pathname.split('/')[1] ?? '';
    const raw = this.answers.get(ext);
    if (!raw || raw.kind === 'error') throw new ExtensionTransportError('connection refused');
    return { status: raw.status, body: raw.body };
  }
}

async function storeWith(handlers: { ext: string; policy: 'Fail' | 'Ignore' }[]): Promise<MemoryObjectStore> {
  const store = new MemoryObjectStore();
  for (const { ext, policy } of handlers) {
    const created = await store.create({ apiVersion: 'runtime.cluster.x-k8s.io/v1beta2', kind: 'ExtensionConfig', metadata: { name: ext, namespace: 'default' }, spec: { clientConfig: { url: `https://127.0.0.1:1/${ext}` } } });
    await store.updateStatus({
      ...created,
      status: { handlers: [{ name: 'gate', requestHook: { apiVersion: 'hooks.runtime.cluster.x-k8s.io/v1alpha1', hook: 'BeforeClusterUpgrade' }, timeoutSeconds: 1, failurePolicy: policy }] },
    });
  }
  return store;
}

describe('raw extension answers never let a blocking hook through by accident', () => {
  it('Success only when every handler passes on its own', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ raw: rawArb, policy: fc.constantFrom('Fail' as const, 'Ignore' as const) }), { minLength: 1, maxLength: 4 }), async (list) => {
        const named = list.map((entry, i) => ({ ...entry, ext: `ext-${i}` }));
        const store = await storeWith(named);
        const client = new StoreHookClient(store, new ScriptedTransport(new Map(named.map((n) => [n.ext, n.raw]))));
        const result = await client.call(
          'BeforeClusterUpgrade',
          { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'c', namespace: 'default' } },
          { fromKubernetesVersion: 'v1.33.0', toKubernetesVersion: 'v1.34.0' },
        );
        expect(result.status === 'Success').toBe(named.every((n) => passes(n.raw, n.policy)));
      }),
      { numRuns: 300 },
    );
  });
});
