import { describe, expect, it } from 'vitest';
import { FaultInjector, seededRandom } from '../../../bench/faults/fault-plan.js';
import { FaultyStore, InjectedCrash } from '../../../bench/faults/faulty-store.js';
import { ConflictError, TransientError } from '../../../shared/errors/index.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';

const plan = (p: Partial<FaultInjector['plan']>) => ({ storeCallFault: 0, lostMessage: 0, duplicatedMessage: 0, seed: 7, ...p });
const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' }, data: {} });

describe('the benchmark fault injector', () => {
  it('is repeatable for a seed', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    expect(Array.from({ length: 5 }, a)).toEqual(Array.from({ length: 5 }, b));
  });

  it.each<[string, Partial<FaultInjector['plan']>, number, number, number]>([
    ['nothing lost or duplicated at rate 0', {}, 100, 0, 0],
    ['everything lost at rate 1', { lostMessage: 1 }, 0, 100, 0],
    ['everything delivered twice at rate 1', { duplicatedMessage: 1 }, 200, 0, 100],
  ])('%s', (_name, p, delivered, lost, duplicated) => {
    const injector = new FaultInjector(plan(p));
    const out = injector.deliver(Array.from({ length: 100 }, (_, i) => i));
    expect(out).toHaveLength(delivered);
    expect(injector.counts.duplicatedMessages).toBe(duplicated);
    expect(injector.counts.lostMessages).toBe(lost);
  });

  it('every faulty write fails with a typed error, and only a crash after the write leaves it done', async () => {
    const inner = new MemoryObjectStore();
    const injector = new FaultInjector(plan({ storeCallFault: 1 }));
    const store = new FaultyStore(inner, injector);
    const errors: unknown[] = [];
    for (let i = 0; i < 60; i++) await store.create(configMap(`c${i}`)).catch((e: unknown) => errors.push(e));
    expect(errors).toHaveLength(60);
    for (const e of errors) expect(e instanceof TransientError || e instanceof ConflictError || e instanceof InjectedCrash).toBe(true);
    const c = injector.counts;
    expect(c.throttled + c.conditionFailed + c.crashedBeforeCall + c.crashedAfterWrite).toBe(60);
    expect(c.crashedAfterWrite, 'each fault kind happens in 60 tries').toBeGreaterThan(0);
    expect(c.throttled * c.conditionFailed * c.crashedBeforeCall).toBeGreaterThan(0);
    const stored = await inner.list({ group: '', kind: 'ConfigMap', namespace: 'ns' });
    expect(stored.items).toHaveLength(c.crashedAfterWrite);
  });

  it('passes calls through untouched at rate 0', async () => {
    const store = new FaultyStore(new MemoryObjectStore(), new FaultInjector(plan({})));
    const created = await store.create(configMap('a'));
    expect((await store.get({ group: '', kind: 'ConfigMap', namespace: 'ns', name: 'a' }))?.metadata.uid).toBe(created.metadata.uid);
  });
});
