import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHANGE_JOURNAL_FILE, FileChangeJournal } from '../../../local/file-change-journal.js';
import type { StoredObject } from '../../../shared/contracts/object.js';
import type { JournalRecord } from '../../../shared/watch/change-journal.js';

function object(name: string, resourceVersion: string): StoredObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'ns1', uid: `uid-${name}`, resourceVersion, generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' },
  };
}

function record(seq: number, name = `o${seq}`): JournalRecord {
  return { seq, type: 'ADDED', object: object(name, String(1_000_000 + seq)) };
}

const line = (value: unknown) => JSON.stringify(value);
const HEADER = line({ origin: '999999', evictedThrough: 4 });

describe('FileChangeJournal', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capless-journal-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('loads what was rewritten and appended, in order', async () => {
    const journal = new FileChangeJournal(dir);
    journal.rewrite({ origin: '999999', evictedThrough: 4, records: [record(5)] });
    journal.append(record(6));
    journal.append({ ...record(7, 'o5'), type: 'MODIFIED', previous: record(5).object });
    journal.close();
    const loaded = new FileChangeJournal(dir).load();
    expect(loaded?.origin).toBe('999999');
    expect(loaded?.evictedThrough).toBe(4);
    expect(loaded?.records.map((r) => `${r.seq} ${r.type} ${r.object.metadata.name}`)).toEqual(['5 ADDED o5', '6 ADDED o6', '7 MODIFIED o5']);
    expect(loaded?.records[2]?.previous?.metadata.name).toBe('o5');
  });

  it.each([
    ['a torn last line (a crash mid-append)', [HEADER, line(record(5)), line(record(6)).slice(0, 40)], [5]],
    ['a gap in the sequence', [HEADER, line(record(5)), line(record(7))], [5]],
    ['a record that is not a change', [HEADER, line(record(5)), line({ seq: 6, type: 'ADDED', object: { kind: 'x' } }), line(record(7))], [5]],
    ['an unknown event type', [HEADER, line({ ...record(5), type: 'ERROR' })], []],
    ['a first record that does not follow evictedThrough', [HEADER, line(record(9))], []],
  ])('keeps the records before %s', async (_case, lines, seqs) => {
    await writeFile(join(dir, CHANGE_JOURNAL_FILE), `${lines.join('\n')}\n`);
    expect(new FileChangeJournal(dir).load()?.records.map((r) => r.seq)).toEqual(seqs);
  });

  it.each([
    ['no file', undefined],
    ['an empty file', ''],
    ['a header that is not JSON', '{origin'],
    ['a header whose origin is not a resourceVersion', line({ origin: 'abc', evictedThrough: 0 })],
  ])('has nothing to load from %s', async (_case, text) => {
    if (text !== undefined) await writeFile(join(dir, CHANGE_JOURNAL_FILE), text);
    expect(new FileChangeJournal(dir).load()).toBeUndefined();
  });

  it('replaces everything on rewrite and keeps the file private', async () => {
    const journal = new FileChangeJournal(dir);
    journal.rewrite({ origin: '999999', evictedThrough: 0, records: [record(1), record(2)] });
    journal.append(record(3));
    journal.rewrite({ origin: '999999', evictedThrough: 2, records: [record(3)] });
    journal.close();
    const text = await readFile(join(dir, CHANGE_JOURNAL_FILE), 'utf8');
    expect(text.trim().split('\n')).toHaveLength(2);
    expect(new FileChangeJournal(dir).load()?.records.map((r) => r.seq)).toEqual([3]);
  });
});
