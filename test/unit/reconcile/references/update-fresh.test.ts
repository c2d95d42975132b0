import { describe, expect, it } from 'vitest';
import type { StoredObject } from '../../../../shared/contracts/object.js';
import { ConflictError } from '../../../../shared/errors/index.js';
import { updateFresh } from '../../../../functions/reconcile/engine/references/update-fresh.js';
import type { ObjectStore } from '../../../../shared/ports/object-store.js';
import { CountingStore } from '../../../support/counting-store.js';
import { testContext } from '../../../support/reconcile-context.js';

/** Before each of its first `times` updates, another writer changes the object's spec. */
class InterferingStore extends CountingStore {
  private written = 0;
  constructor(
    private readonly backing: ObjectStore,
    private readonly times: number,
  ) {
    super(backing);
  }
  override async update(obj: StoredObject): Promise<StoredObject> {
    if (this.written < this.times) {
      this.written++;
      const fresh = await this.backing.get({ group: 'x.io', kind: 'Thing', namespace: 'default', name: 't' });
      if (fresh) await this.backing.update({ ...fresh, spec: { n: this.written } });
    }
    return super.update(obj);
  }
}

const label = (o: StoredObject): StoredObject | undefined =>
  o.metadata.labels?.seen ? undefined : { ...o, metadata: { ...o.metadata, labels: { ...o.metadata.labels, seen: 'yes' } } };

describe('updateFresh', () => {
  it.each<[string, number, boolean]>([
    ['no interference', 0, true],
    ['one concurrent write: recomputed on a fresh read', 1, true],
    ['two concurrent writes: still within 3 attempts', 2, true],
    ['three concurrent writes: gives up with the conflict', 3, false],
  ])('%s', async (_name, interferences, succeeds) => {
    const ctx = testContext();
    const created = await ctx.store.create({ apiVersion: 'x.io/v1', kind: 'Thing', metadata: { name: 't' }, spec: { n: 0 } });
    const store = new InterferingStore(ctx.store, interferences);
    const result = updateFresh(store, created, label);
    if (!succeeds) {
      await expect(result).rejects.toBeInstanceOf(ConflictError);
      return;
    }
    const written = await result;
    expect(written?.metadata.labels).toEqual({ seen: 'yes' });
    expect(written?.spec).toEqual({ n: interferences });
  });

  it('writes nothing when the change says so', async () => {
    const ctx = testContext();
    const created = await ctx.store.create({ apiVersion: 'x.io/v1', kind: 'Thing', metadata: { name: 't', labels: { seen: 'yes' } } });
    expect(await updateFresh(ctx.store, created, label)).toBe(created);
  });
});
