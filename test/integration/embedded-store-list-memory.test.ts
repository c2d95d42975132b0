import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { ListHeapReport } from '../support/embedded-list-heap.js';

const repoRoot = resolve(import.meta.dirname, '../..');
const LISTS = 3000;
const OBJECTS = 100;
/**
 * Before ADR 0042's fix every list left its LevelDB iterator open: these 3,000 lists grew the heap
 * by about 44 MB (15 KB a list). With it the growth is about 1.3 MB and does not rise with more
 * lists (warm-up caches of the SDK and V8); 8 MB leaves room for noise and fails the old code.
 */
const MAX_GROWTH_MB = 8;

describe('the embedded store under many lists', () => {
  it(`keeps heap growth under ${MAX_GROWTH_MB} MB over ${LISTS} paged lists`, async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', join(repoRoot, 'test/support/embedded-list-heap.ts'), String(LISTS), String(OBJECTS)],
      { cwd: repoRoot, env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' }, timeout: 90_000 },
    );
    const report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as ListHeapReport;
    expect(report.lists).toBe(LISTS);
    expect(report.growthMb, JSON.stringify(report)).toBeLessThan(MAX_GROWTH_MB);
  });
});
