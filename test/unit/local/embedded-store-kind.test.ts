import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultEmbeddedStore, isEmbeddedStoreKind } from '../../../local/embedded-store-kind.js';
import { OBJECT_JOURNAL_FILE } from '../../../local/file-object-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the embedded store a data dir gets when none is named (ADR 0131)', () => {
  it.each([
    { dataDir: 'empty', dynalite: false, journal: false, persist: true, expected: 'file' },
    { dataDir: 'made before ADR 0131', dynalite: true, journal: false, persist: true, expected: 'dynalite' },
    { dataDir: 'with both (the journal wins: it was written last by choice)', dynalite: true, journal: true, persist: true, expected: 'file' },
    { dataDir: 'with a journal', dynalite: false, journal: true, persist: true, expected: 'file' },
    { dataDir: 'made before ADR 0131, run in memory', dynalite: true, journal: false, persist: false, expected: 'file' },
  ])('$dataDir → $expected', ({ dynalite, journal, persist, expected }) => {
    const dir = mkdtempSync(join(tmpdir(), 'capless-kind-'));
    dirs.push(dir);
    if (dynalite) {
      mkdirSync(join(dir, 'dynamodb'));
      writeFileSync(join(dir, 'dynamodb', 'CURRENT'), 'MANIFEST-000001\n');
    }
    if (journal) writeFileSync(join(dir, OBJECT_JOURNAL_FILE), '{"format":"capless-objects/1"}\n');
    expect(defaultEmbeddedStore(dir, persist)).toBe(expected);
  });

  it.each([
    ['file', true],
    ['dynalite', true],
    ['memory', false],
    ['dynamodb', false],
    ['', false],
  ])('%j is an embedded store kind: %s', (value, expected) => {
    expect(isEmbeddedStoreKind(value)).toBe(expected);
  });
});
