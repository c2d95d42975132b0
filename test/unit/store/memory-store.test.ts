import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/contracts/object.js';
import type { ObjectChange } from '../../../shared/ports/object-store.js';
import type { ObjectJournal } from '../../../shared/store/object-journal.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { describeObjectStoreConformance } from '../../conformance/object-store.conformance.js';

describeObjectStoreConformance('MemoryObjectStore', async () => ({
  store: new MemoryObjectStore(),
  cleanup: async () => {},
}));

describe('MemoryObjectStore with a journal that refuses a write (a full disk)', () => {
  const machine = (name: string): KubeObject => ({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Machine', metadata: { name, namespace: 'ns1' }, spec: { version: 'v1.32.0' } });
  const key = { group: 'cluster.x-k8s.io', kind: 'Machine', namespace: 'ns1', name: 'm1' };

  const stored = async (store: MemoryObjectStore) => {
    const found = await store.get(key);
    if (!found) throw new Error('m1 is not stored');
    return found;
  };

  it.each<[string, (store: MemoryObjectStore) => Promise<unknown>]>([
    ['an update', async (store) => store.update({ ...(await stored(store)), spec: { version: 'v1.33.0' } })],
    ['a status update', async (store) => store.updateStatus({ ...(await stored(store)), status: { phase: 'Running' } })],
    ['a delete', async (store) => store.delete(key)],
  ])('%s fails, leaves the object as it was and tells no listener', async (_label, write) => {
    let refuse = false;
    const journal: ObjectJournal = {
      put: () => {
        if (refuse) throw new Error('ENOSPC');
      },
      remove: () => {
        if (refuse) throw new Error('ENOSPC');
      },
    };
    const store = new MemoryObjectStore({ journal });
    const before = await store.create(machine('m1'));
    const heard: ObjectChange[] = [];
    store.onChange((change) => heard.push(change));
    refuse = true;
    await expect(write(store)).rejects.toThrow('ENOSPC');
    expect(await store.get(key)).toEqual(before);
    expect(heard).toEqual([]);
  });

  it('a create fails and leaves nothing', async () => {
    const refusing: ObjectJournal = {
      put: () => {
        throw new Error('ENOSPC');
      },
      remove: () => {},
    };
    const store = new MemoryObjectStore({ journal: refusing });
    await expect(store.create(machine('m1'))).rejects.toThrow('ENOSPC');
    expect(await store.get(key)).toBeUndefined();
  });
});
