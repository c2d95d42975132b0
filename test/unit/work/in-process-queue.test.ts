import { describe, expect, it } from 'vitest';
import { requestProcessor } from '../../../functions/reconcile/engine/process-request.js';
import type { ReconcileContext } from '../../../functions/reconcile/engine/skeleton/types.js';
import { silentLogger } from '../../../shared/ports/logger.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { InProcessWorkQueue } from '../../../shared/work/in-process-queue.js';
import type { RequestOutcome } from '../../../shared/work/request-outcome.js';
import type { ObjectVersion } from '../../../shared/ports/work-queue.js';
import { describeWorkQueueConformance } from '../../conformance/work-queue.conformance.js';
import { ManualTime } from '../../support/manual-time.js';
import { gate, widgetKey } from '../../support/probe-reconciler.js';

describe.each([
  { name: 'InProcessWorkQueue', slots: {} },
  { name: 'InProcessWorkQueue, one reconcile per kind', slots: { concurrency: 4, concurrencyPerKind: 1 } },
])('$name', ({ name, slots }) => describeInProcessConformance(name, slots));

function describeInProcessConformance(name: string, slots: { concurrency?: number; concurrencyPerKind?: number }) {
describeWorkQueueConformance(name, async ({ registry, policy }) => {
  const time = new ManualTime();
  const store = new MemoryObjectStore({ clock: time });
  let context: ReconcileContext | undefined;
  const queue = new InProcessWorkQueue({
    handler: requestProcessor({
      registry,
      policy,
      context: () => {
        if (!context) throw new Error('context not wired');
        return context;
      },
    }),
    clock: time,
    timers: time,
    ...slots,
  });
  context = { store, queue, clock: time, logger: silentLogger };
  const settle = () => queue.idle();
  return {
    queue,
    store,
    start: async () => queue.start(),
    settle,
    elapse: async (seconds) => {
      await time.advance(seconds * 1000, settle);
      await settle();
    },
    until: async (predicate) => {
      for (let step = 0; step < 100; step++) {
        await settle();
        if (await predicate()) return;
        const due = time.nextDue();
        if (due === undefined) break;
        await time.advance(Math.max(0, due - time.now().getTime()), settle);
      }
      throw new Error('condition never held');
    },
    deadLetters: async () => queue.deadLetters.map((d) => d.request),
    dropsChangesAlreadyRead: true,
    close: () => queue.stop(),
  };
});
}

describe('Class: InProcessWorkQueue', () => {
  const setup = () => {
    const time = new ManualTime();
    const store = new MemoryObjectStore({ clock: time });
    const started: string[] = [];
    const queue = new InProcessWorkQueue({
      handler: async (request) => {
        started.push(request.name);
        return { type: 'done' };
      },
      clock: time,
      timers: time,
      concurrency: 2,
    });
    return { time, store, queue, started };
  };

  it('counts enqueues, coalesced enqueues and processed requests', async () => {
    const { queue } = setup();
    await queue.enqueueMany([widgetKey('a'), widgetKey('a'), widgetKey('b')]);
    queue.start();
    await queue.idle();
    expect(queue.counters).toEqual({ enqueued: 3, coalesced: 1, alreadyRead: 0, processed: 2, failed: 0, deadLettered: 0 });
    expect(queue.latencyPercentile(50)).toBe(0);
  });

  it('measures enqueue-to-start latency on its clock', async () => {
    const { queue, time } = setup();
    await queue.enqueue(widgetKey('a'));
    await time.advance(250, async () => {});
    queue.start();
    await queue.idle();
    expect(queue.latencyPercentile(99)).toBe(250);
  });

  it('hands over the waits recorded since the last take, and forgets them', async () => {
    const { queue, time } = setup();
    await queue.enqueue(widgetKey('a'));
    await time.advance(40, async () => {});
    queue.start();
    await queue.idle();
    expect(queue.takeLatencySamples()).toEqual([40]);
    await queue.enqueue(widgetKey('b'));
    await queue.idle();
    expect(queue.takeLatencySamples()).toEqual([0]);
    expect(queue.takeLatencySamples()).toEqual([]);
    expect(queue.latencyPercentile(50)).toBeUndefined();
  });

  it('keeps only the earliest delay per object', async () => {
    const { queue, time, started } = setup();
    queue.start();
    await queue.enqueue(widgetKey('a'), { delaySeconds: 60 });
    await queue.enqueue(widgetKey('a'), { delaySeconds: 10 });
    await time.advance(10_000, () => queue.idle());
    expect(started).toEqual(['a']);
    await time.advance(60_000, () => queue.idle());
    expect(started).toEqual(['a']);
  });

  describe('a successful run answers the requeue an earlier run asked for (ADR 0137)', () => {
    type Step = (queue: InProcessWorkQueue) => Promise<RequestOutcome> | RequestOutcome;
    const requeue = (afterSeconds: number): Step => () => ({ type: 'requeue', afterSeconds });
    const done: Step = () => ({ type: 'done' });
    const fail = (afterSeconds: number): Step => () => ({ type: 'retry', afterSeconds, error: 'x' });
    const asksDelayedRun = (seconds: number): Step => async (queue) => {
      await queue.enqueue(widgetKey('a'), { delaySeconds: seconds });
      return { type: 'done' };
    };

    it.each<[string, Step[], number[]]>([
      ['a later run that is done drops it', [requeue(30), done], [0, 5]],
      ['a later run that asks for its own requeue replaces it', [requeue(30), requeue(60), done], [0, 5, 65]],
      ['a later run that fails does not answer it', [requeue(30), fail(40), done], [0, 5, 30]],
      ['a delayed run asked for during the later run is kept', [requeue(30), asksDelayedRun(20), done], [0, 5, 25]],
    ])('%s', async (_label, steps, expectedStartSeconds) => {
      const time = new ManualTime();
      const starts: number[] = [];
      let queue: InProcessWorkQueue | undefined;
      queue = new InProcessWorkQueue({
        handler: async () => {
          starts.push(time.now().getTime() / 1000);
          const step = steps[starts.length - 1] ?? done;
          if (!queue) throw new Error('no queue');
          return step(queue);
        },
        clock: time,
        timers: time,
      });
      const origin = time.now().getTime() / 1000;
      queue.start();
      await queue.enqueue(widgetKey('a'));
      await queue.idle();
      await time.advance(5_000, () => queue.idle());
      await queue.enqueue(widgetKey('a'));
      await queue.idle();
      await time.advance(120_000, () => queue.idle());
      expect(starts.map((at) => at - origin)).toEqual(expectedStartSeconds);
    });
  });

  it('runs the resync on its interval until stopped', async () => {
    const time = new ManualTime();
    let resyncs = 0;
    const queue = new InProcessWorkQueue({
      handler: async () => ({ type: 'done' }),
      clock: time,
      timers: time,
      resync: { intervalSeconds: 600, run: async () => void resyncs++ },
    });
    const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
    queue.start();
    await time.advance(1_800_000, settle);
    expect(resyncs).toBe(3);
    await queue.stop();
    await time.advance(1_800_000, settle);
    expect(resyncs).toBe(3);
  });

  it('stop with drain finishes queued work; stop without drops what has not started', async () => {
    const drained = setup();
    await drained.queue.enqueueMany([widgetKey('a'), widgetKey('b'), widgetKey('c')]);
    drained.queue.start();
    await drained.queue.stop({ drain: true });
    expect(drained.started.sort()).toEqual(['a', 'b', 'c']);

    const dropped = setup();
    await dropped.queue.enqueueMany([widgetKey('a'), widgetKey('b'), widgetKey('c')]);
    await dropped.queue.stop();
    dropped.queue.start();
    expect(dropped.started).toEqual([]);
  });

  it.each([
    { slots: { concurrency: 8, concurrencyPerKind: 2 }, gadgetsAtOnce: 2, widgetsStarted: 3 },
    { slots: { concurrency: 3, concurrencyPerKind: 2 }, gadgetsAtOnce: 2, widgetsStarted: 3 },
    // Without a limit per kind, waiting gadgets take every slot: w2 and w3 wait behind them.
    { slots: { concurrency: 2 }, gadgetsAtOnce: 2, widgetsStarted: 1 },
  ])('reconciles of a kind that wait hold at most their kind’s slots: $slots', async ({ slots, gadgetsAtOnce, widgetsStarted }) => {
    const started: string[] = [];
    const release: Array<() => void> = [];
    const queue = new InProcessWorkQueue({
      handler: async (request) => {
        started.push(`${request.kind}/${request.name}`);
        if (request.kind === GADGET.kind) await new Promise<void>((resolve) => release.push(resolve));
        return { type: 'done' };
      },
      ...slots,
    });
    await queue.enqueueMany([...['g1', 'g2', 'g3', 'g4'].map(gadgetKey), widgetKey('w1'), widgetKey('w2'), widgetKey('w3')]);
    queue.start();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started.filter((s) => s.startsWith(GADGET.kind))).toHaveLength(gadgetsAtOnce);
    expect(started.filter((s) => s.startsWith(WIDGET_KIND))).toHaveLength(widgetsStarted);
    while (release.length > 0) {
      for (const resolve of release.splice(0)) resolve();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await queue.idle();
    expect(started).toHaveLength(7);
  });
});

describe('a run that ends with its object gone (ADR 0149)', () => {
  const READ: ObjectVersion = { uid: 'child-uid', resourceVersion: '7' };
  const UNREAD: ObjectVersion = { uid: 'made-again-uid', resourceVersion: '1' };

  it.each<{ name: string; gone: boolean; during: readonly (ObjectVersion | 'uncaused')[]; runs: number }>([
    { name: 'drops a wake without a cause (a removal’s, a resync’s)', gone: true, during: ['uncaused'], runs: 1 },
    { name: 'drops it with a change whose version the run read', gone: true, during: ['uncaused', READ], runs: 1 },
    { name: 'runs again for a wake without a cause when the object is still there', gone: false, during: ['uncaused'], runs: 2 },
    { name: 'runs again for a change the run did not read: the object made again under its key', gone: true, during: ['uncaused', UNREAD], runs: 2 },
    { name: 'runs again for that change alone', gone: true, during: [UNREAD], runs: 2 },
  ])('$name', async ({ gone, during, runs }) => {
    const entered = gate();
    const release = gate();
    let run = 0;
    const queue = new InProcessWorkQueue({
      handler: async (): Promise<RequestOutcome> => {
        run++;
        if (run === 1) {
          entered.open();
          await release.promise;
        }
        return { type: 'done', read: new Map([[READ.uid, READ.resourceVersion]]), ...(gone ? { gone: true as const } : {}) };
      },
    });
    await queue.enqueue(widgetKey('a'));
    queue.start();
    await entered.promise;
    for (const wake of during) await queue.enqueueMany([widgetKey('a')], wake === 'uncaused' ? {} : { cause: wake });
    release.open();
    await queue.idle();
    expect(run).toBe(runs);
  });
});

const GADGET = { group: 'example.com', kind: 'Gadget' };
const WIDGET_KIND = widgetKey('x').kind;

function gadgetKey(name: string) {
  return { ...GADGET, namespace: 'default', name };
}
