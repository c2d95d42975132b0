import { describe, expect, it, vi } from 'vitest';
import { ensureBootstrapToken, tokenSecret } from '../../../functions/reconcile/kubeadm/bootstrap/bootstrap-token.js';
import { isAlreadyExists } from '../../../shared/errors/index.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';

/** A joining config's bootstrap token: created once, and the one there is reused. */
const NOW = new Date('2026-03-01T00:00:00Z');
const FRESH = 'abcdef.0123456789abcdef';
const RECORDED = 'zyxwvu.fedcba9876543210';

async function setUp(existing: 'none' | 'recorded' | 'malformed') {
  const store = new MemoryObjectStore();
  const config = await store.create({ apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2', kind: 'KubeadmConfig', metadata: { name: 'w1', namespace: 'default' } });
  if (existing === 'recorded') await store.create(tokenSecret(config, 'c1', RECORDED, NOW));
  if (existing === 'malformed') await store.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'w1-token', namespace: 'default' }, data: {} });
  return { store, input: { config, clusterName: 'c1', now: NOW, generate: () => FRESH } };
}

describe('ensureBootstrapToken', () => {
  it.each([
    { name: 'creates the token Secret, reading nothing', existing: 'none' as const, token: FRESH, reads: 0 },
    { name: 'reuses the token a lost status write left behind', existing: 'recorded' as const, token: RECORDED, reads: 1 },
  ])('$name', async ({ existing, token, reads }) => {
    const { store, input } = await setUp(existing);
    const get = vi.spyOn(store, 'get');
    expect(await ensureBootstrapToken(store, input)).toBe(token);
    expect(get).toHaveBeenCalledTimes(reads);
    const secret = await store.get({ group: '', kind: 'Secret', namespace: 'default', name: 'w1-token' });
    expect(secret?.type).toBe('bootstrap.kubernetes.io/token');
  });

  it('fails on a Secret of its name that holds no token, rather than replace it', async () => {
    const { store, input } = await setUp('malformed');
    const error: unknown = await ensureBootstrapToken(store, input).catch((e: unknown) => e);
    expect(isAlreadyExists(error)).toBe(true);
  });
});
