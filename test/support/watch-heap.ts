/**
 * Memory of many concurrent watches on the embedded server, measured in a process of its own so the
 * test runner's heap does not drown it (ADR 0080). Run as
 *
 *   node --expose-gc --import tsx test/support/watch-heap.ts [watches] [changes] [stalled]
 *
 * It serves the API over plain HTTP on 127.0.0.1 with an in-memory store, opens `watches` watches
 * on ConfigMaps (each its own connection, read by a client that parses nothing), of which
 * `stalled` stop reading (they stay within the sockets' buffers at this size: the drop itself is
 * test/conformance/watch.conformance.ts's and kubectl-free HTTP test's), makes `changes` writes of about 2 KB, and prints one JSON line: heap and
 * RSS after a full GC before the watches, with them open after the writes, and after they closed,
 * with how many events the readers received and how many stalled clients the server dropped.
 */
import { type ClientRequest, request } from 'node:http';
import { handleApiRequest } from '../../functions/api/api.js';
import { pathAdmission } from '../../functions/api/path-admission.js';
import { WatchHub } from '../../functions/api/watch/watch-hub.js';
import { listen } from '../../local/http-server.js';
import { KindRegistry } from '../../shared/contracts/kinds.js';
import { builtinProviderLookup } from '../../shared/contracts/providers/builtin-lookup.js';
import { silentLogger } from '../../shared/ports/logger.js';
import { MemoryObjectStore } from '../../shared/store/memory-store.js';
import { ChangeLog } from '../../shared/watch/change-log.js';

export interface WatchHeapReport {
  watches: number;
  changes: number;
  stalled: number;
  beforeMb: number;
  openMb: number;
  /** After the first round of watches closed: the second round must not grow it. */
  afterFirstMb: number;
  afterMb: number;
  perWatchKb: number;
  rssOpenMb: number;
  eventsReceived: number;
  droppedStalled: number;
  openAfterClose: number;
}

function collectedHeapMb(): number {
  const gc: unknown = Reflect.get(globalThis, 'gc');
  if (typeof gc !== 'function') throw new Error('run with node --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1e6;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

/**
 * The collected heap once closed sockets have let go of their buffers: the lowest of a few samples
 * taken a settle apart. Under load their cleanup can trail the close by a while, and a real leak
 * never goes down, so the lowest sample is the retained heap.
 */
async function settledHeapMb(samples = 5): Promise<number> {
  let lowest = collectedHeapMb();
  for (let i = 1; i < samples; i++) {
    await settle();
    lowest = Math.min(lowest, collectedHeapMb());
  }
  return lowest;
}

/** Waits until the server has seen every watch close (bounded: the report says if some stayed open). */
async function allClosed(hub: WatchHub): Promise<void> {
  for (let waited = 0; hub.openWatches() > 0 && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
}

async function measure(watches: number, changes: number, stalled: number): Promise<WatchHeapReport> {
  const store = new MemoryObjectStore();
  const kinds = new KindRegistry();
  const hub = new WatchHub(new ChangeLog(store), { maxWatches: watches + 10, maxPendingBytes: 256 * 1024 });
  const deps = { store, kinds, admission: pathAdmission(kinds, builtinProviderLookup), authenticate: () => ({ name: 'admin', canReadSecrets: true, canWriteSecrets: true }), logger: silentLogger, watches: hub };
  const server = await listen((r) => handleApiRequest(r, deps), { host: '127.0.0.1', port: 0 });
  const port = Number(new URL(server.url).port);
  const beforeMb = collectedHeapMb();
  const first = await cycle(port, store, hub, { watches, changes, stalled, round: 0 });
  const afterFirstMb = await settledHeapMb();
  const second = await cycle(port, store, hub, { watches, changes, stalled, round: 1 });
  const afterMb = await settledHeapMb();
  hub.close();
  await server.close();
  return {
    watches,
    changes,
    stalled,
    beforeMb: round(beforeMb),
    openMb: round(second.openMb),
    afterFirstMb: round(afterFirstMb),
    afterMb: round(afterMb),
    perWatchKb: round(((second.openMb - afterFirstMb) * 1000) / watches),
    rssOpenMb: round(second.rssOpenMb),
    eventsReceived: first.eventsReceived + second.eventsReceived,
    droppedStalled: first.dropped + second.dropped,
    openAfterClose: hub.openWatches(),
  };
}

/** Opens the watches, makes the changes, measures, closes every watch. */
async function cycle(port: number, store: MemoryObjectStore, hub: WatchHub, plan: { watches: number; changes: number; stalled: number; round: number }) {
  let eventsReceived = 0;
  const requests: ClientRequest[] = [];
  await Promise.all(
    Array.from({ length: plan.watches }, (_, i) =>
      new Promise<void>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${hub.listResourceVersion()}`, agent: false }, (res) => {
          if (i < plan.stalled) res.pause();
          else res.on('data', (chunk: Buffer) => {
            for (const byte of chunk) if (byte === 10) eventsReceived++;
          });
          res.on('error', () => {});
          resolve();
        });
        req.on('error', reject);
        req.end();
        requests.push(req);
      }),
    ),
  );
  const filler = 'x'.repeat(2 * 1024);
  for (let i = 0; i < plan.changes; i++) {
    await store.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${plan.round}-${i}`, namespace: 'default' }, data: { filler } });
    if (i % 5 === 0) await settle();
  }
  await settle();
  const openMb = collectedHeapMb();
  const rssOpenMb = process.memoryUsage().rss / 1e6;
  const dropped = plan.watches - hub.openWatches();
  for (const req of requests) req.destroy();
  requests.length = 0;
  await allClosed(hub);
  await settle();
  return { openMb, rssOpenMb, eventsReceived, dropped };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

if (process.argv[1]?.endsWith('watch-heap.ts')) {
  const [watches = '2000', changes = '50', stalled = '100'] = process.argv.slice(2);
  const report = await measure(Number(watches), Number(changes), Number(stalled));
  process.stdout.write(`${JSON.stringify(report)}\n`);
}
