import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OBJECT_JOURNAL_FILE, openFileObjectStore } from '../../../local/file-object-store.js';
import type { KubeObject, StoredObject } from '../../../shared/contracts/object.js';
import type { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { describeObjectStoreConformance } from '../../conformance/object-store.conformance.js';
import { describeWatchConformance } from '../../conformance/watch.conformance.js';

const dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'capless-objects-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function everything(store: MemoryObjectStore): StoredObject[] {
  return [...store.storedObjects()].sort((a, b) => `${a.kind}/${a.metadata.name}`.localeCompare(`${b.kind}/${b.metadata.name}`));
}

/** After each conformance test: what a reopened file holds is exactly what the store held. */
function reopenedMatches(dir: string, store: MemoryObjectStore, compactAfterLines?: number): () => Promise<void> {
  return async () => {
    const reopened = openFileObjectStore(dir, compactAfterLines === undefined ? {} : { compactAfterLines });
    try {
      expect(reopened.droppedLines).toBe(0);
      expect(everything(reopened.store)).toEqual(everything(store));
    } finally {
      reopened.close();
    }
  };
}

for (const compactAfterLines of [undefined, 1]) {
  const label = compactAfterLines === undefined ? 'file-backed MemoryObjectStore' : 'file-backed MemoryObjectStore compacting after every write';
  describeObjectStoreConformance(label, async () => {
    const dir = freshDir();
    const opened = openFileObjectStore(dir, compactAfterLines === undefined ? {} : { compactAfterLines });
    const check = reopenedMatches(dir, opened.store, compactAfterLines);
    return {
      store: opened.store,
      cleanup: async () => {
        opened.close();
        await check();
      },
    };
  });
}

describeWatchConformance('file-backed MemoryObjectStore', async () => {
  const opened = openFileObjectStore(freshDir());
  return { store: opened.store, cleanup: async () => opened.close() };
});

const machine = (name: string, extra: Partial<KubeObject> = {}): KubeObject => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2',
  kind: 'Machine',
  metadata: { name, namespace: 'ns1' },
  spec: { clusterName: 'c1', version: 'v1.32.0' },
  ...extra,
});
const key = (name: string) => ({ group: 'cluster.x-k8s.io', kind: 'Machine', namespace: 'ns1', name });

describe('the object journal file (ADR 0131)', () => {
  it.each<[string, (store: MemoryObjectStore) => Promise<unknown>]>([
    ['a create', (store) => store.create(machine('m1'))],
    ['an update', async (store) => store.update({ ...(await store.create(machine('m1'))), spec: { clusterName: 'c1', version: 'v1.33.0' } })],
    ['a status update', async (store) => store.updateStatus({ ...(await store.create(machine('m1'))), status: { phase: 'Running' } })],
    ['a delete held by a finalizer', async (store) => store.delete(key((await store.create(machine('m1', { metadata: { name: 'm1', namespace: 'ns1', finalizers: ['x/y'] } }))).metadata.name))],
    ['a delete', async (store) => store.delete(key((await store.create(machine('m1'))).metadata.name))],
    [
      'a cascading delete',
      async (store) => {
        const owner = await store.create(machine('owner'));
        const ref = { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, controller: true };
        await store.create(machine('child', { metadata: { name: 'child', namespace: 'ns1', ownerReferences: [ref] } }));
        await store.delete(key('owner'));
      },
    ],
  ])('%s is in the file when the store is opened again', async (_label, write) => {
    const dir = freshDir();
    const first = openFileObjectStore(dir);
    await write(first.store);
    const before = everything(first.store);
    first.close();
    const second = openFileObjectStore(dir);
    expect(everything(second.store)).toEqual(before);
    second.close();
  });

  it('drops a torn last line, says so, and keeps what is written after it', async () => {
    const dir = freshDir();
    const first = openFileObjectStore(dir);
    await first.store.create(machine('m1'));
    first.close();
    appendFileSync(join(dir, OBJECT_JOURNAL_FILE), '{"put":{"apiVersion":"cluster.x-k8s.io/v1beta2","kind":"Mach');

    const second = openFileObjectStore(dir);
    expect(second.droppedLines).toBe(1);
    expect(everything(second.store).map((o) => o.metadata.name)).toEqual(['m1']);
    await second.store.create(machine('m2'));
    second.close();

    const third = openFileObjectStore(dir);
    expect(third.droppedLines).toBe(0);
    expect(everything(third.store).map((o) => o.metadata.name)).toEqual(['m1', 'm2']);
    third.close();
  });

  it('reads back lines that straddle its read chunks (multi-byte characters included)', async () => {
    const dir = freshDir();
    const first = openFileObjectStore(dir);
    // Ten 150 KB objects: a 1.5 MB file read in 1 MB chunks, a 3-byte character at every offset.
    for (let i = 0; i < 10; i++) {
      await first.store.create(machine(`big${i}`, { metadata: { name: `big${i}`, namespace: 'ns1', annotations: { note: `${'x'.repeat(i)}${'€'.repeat(50_000)}` } } }));
    }
    const before = everything(first.store);
    first.close();
    const second = openFileObjectStore(dir);
    expect(second.droppedLines).toBe(0);
    expect(everything(second.store)).toEqual(before);
    second.close();
  });

  it('refuses a file that is not an object journal rather than start empty over it', () => {
    const dir = freshDir();
    writeFileSync(join(dir, OBJECT_JOURNAL_FILE), 'not a journal\n');
    expect(() => openFileObjectStore(dir)).toThrow(/is not a capless object journal/);
  });

  it('issues resourceVersions past every one it loaded, so watch positions keep increasing', async () => {
    const dir = freshDir();
    const first = openFileObjectStore(dir);
    const stored = await first.store.create(machine('m1'));
    first.close();
    // As if the clock ran far ahead when it was written.
    const future = '9000000000000000';
    const text = readFileSync(join(dir, OBJECT_JOURNAL_FILE), 'utf8').replace(`"resourceVersion":"${stored.metadata.resourceVersion}"`, `"resourceVersion":"${future}"`);
    writeFileSync(join(dir, OBJECT_JOURNAL_FILE), text);

    const second = openFileObjectStore(dir);
    const created = await second.store.create(machine('m2'));
    expect(BigInt(created.metadata.resourceVersion)).toBeGreaterThan(BigInt(future));
    second.close();
  });

  it('compacts to one line per live object, written for this user only', async () => {
    const dir = freshDir();
    const opened = openFileObjectStore(dir, { compactAfterLines: 10 });
    for (let i = 0; i < 30; i++) await opened.store.create(machine(`m${i}`));
    for (let i = 0; i < 30; i++) await opened.store.delete(key(`m${i}`));
    await opened.store.create(machine('last'));
    opened.close();
    const lines = readFileSync(join(dir, OBJECT_JOURNAL_FILE), 'utf8').trim().split('\n');
    // Compactions ran on the way: far fewer than the 61 writes' lines plus the header.
    expect(lines.length).toBeLessThan(30);
    expect(statSync(join(dir, OBJECT_JOURNAL_FILE)).mode & 0o777).toBe(0o600);
    const reopened = openFileObjectStore(dir);
    expect(everything(reopened.store).map((o) => o.metadata.name)).toEqual(['last']);
    reopened.close();
  });
});
