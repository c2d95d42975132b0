import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, startTestApi } from '../../support/api-server.js';
import { eventually } from '../../support/eventually.js';
import type { WatchHeapReport } from '../../support/watch-heap.js';

const repoRoot = resolve(import.meta.dirname, '../../..');
const WATCHES = 2000;
const CHANGES = 50;
const STALLED = 100;
/** Measured: about 4 KB a watch on a warm heap, client and server ends together (ADR 0080). */
const MAX_PER_WATCH_KB = 32;
/** A second round of 2,000 watches after the first closed may grow the heap by the 50 objects it writes, not by the watches. */
const MAX_GROWTH_AFTER_CLOSE_MB = 4;

describe('thousands of concurrent watches on the embedded server', () => {
  it(`${WATCHES} watches over HTTP, twice: every reader gets every event, heap per watch under ${MAX_PER_WATCH_KB} KB, nothing kept after they close`, async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', join(repoRoot, 'test/support/watch-heap.ts'), String(WATCHES), String(CHANGES), String(STALLED)],
      { cwd: repoRoot, env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' }, timeout: 110_000 },
    );
    const line = stdout.trim().split('\n').at(-1) ?? '';
    const report: WatchHeapReport = JSON.parse(line);
    console.info(`watch heap: ${line}`);
    expect(report.eventsReceived).toBe(2 * (WATCHES - STALLED) * CHANGES);
    expect(report.perWatchKb, line).toBeLessThan(MAX_PER_WATCH_KB);
    expect(report.afterMb - report.afterFirstMb, line).toBeLessThan(MAX_GROWTH_AFTER_CLOSE_MB);
    expect(report.openAfterClose).toBe(0);
  });
});

describe('a watch client that stops reading, over HTTP', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ tls: false, watchLimits: { maxPendingBytes: 256 * 1024 } });
  });
  afterAll(() => api.close());

  it('is dropped by the server once its queue is full, while a reading client gets every event', async () => {
    const { port } = new URL(api.url);
    const open = (onData: ((chunk: Buffer) => void) | undefined) =>
      new Promise<void>((resolvePromise, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/api/v1/namespaces/default/configmaps?watch=true', headers: { authorization: `Bearer ${api.token}` }, agent: false }, (res) => {
          if (onData) res.on('data', onData);
          else res.pause();
          resolvePromise();
        });
        req.on('error', reject);
        req.end();
      });
    let newlines = 0;
    await open(undefined);
    await open((chunk) => {
      for (const byte of chunk) if (byte === 10) newlines++;
    });
    const filler = 'x'.repeat(100 * 1024);
    const writes = 120;
    for (let i = 0; i < writes; i++) {
      await api.store.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `big-${i}`, namespace: 'default' }, data: { filler } });
      await new Promise((r) => setImmediate(r));
    }
    await eventually('the stalled client to be dropped', async () => (api.watches?.openWatches() === 1 ? true : undefined), { timeoutMs: 60_000, intervalMs: 50 });
    await eventually('the reading client to get every event', async (seen) => {
      seen(newlines);
      return newlines === writes ? true : undefined;
    }, { timeoutMs: 60_000, intervalMs: 50 });
  });
});
