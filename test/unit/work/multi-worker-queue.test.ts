import { describe, expect, it } from 'vitest';
import { ReconcilerRegistry } from '../../../functions/reconcile/engine/registry.js';
import { ReconcileDispatcher } from '../../../local/workers/reconcile-dispatcher.js';
import type { WorkerDeps } from '../../../local/workers/serve-reconciles.js';
import { silentLogger } from '../../../shared/ports/logger.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import { InProcessWorkQueue } from '../../../shared/work/in-process-queue.js';
import { describeWorkQueueConformance } from '../../conformance/work-queue.conformance.js';
import { channelWorkers } from '../../support/channel-workers.js';
import { ManualTime } from '../../support/manual-time.js';
import { gate, Probe, widget, widgetKey } from '../../support/probe-reconciler.js';

const WORKERS = 3;

/** The queue of `capless up --workers N`: the in-process queue dispatching to N workers over message ports. */
function multiWorkerQueue(time: ManualTime, deps: Omit<WorkerDeps, 'clock'>, workers = WORKERS) {
  const store = new MemoryObjectStore({ clock: time });
  const { spawn, spawned } = channelWorkers({ ...deps, clock: time });
  let queue: InProcessWorkQueue | undefined;
  const dispatcher = new ReconcileDispatcher({
    workers,
    spawn,
    store,
    queue: () => {
      if (!queue) throw new Error('queue not built');
      return queue;
    },
    logger: silentLogger,
  });
  queue = new InProcessWorkQueue({ handler: dispatcher.handler, clock: time, timers: time, concurrency: 4 * workers });
  return { store, queue, dispatcher, spawned };
}

describeWorkQueueConformance(`InProcessWorkQueue dispatching to ${WORKERS} workers`, async ({ registry, policy }) => {
  const time = new ManualTime();
  const { store, queue, dispatcher } = multiWorkerQueue(time, { registry, policy });
  await dispatcher.start();
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
    close: async () => {
      await queue.stop();
      await dispatcher.stop();
    },
  };
});

describe('Class: ReconcileDispatcher', () => {
  it.each([
    ['enqueued one by one while it runs', false],
    ['started together in one turn (enqueued before the queue starts)', true],
  ])('spreads different objects over the workers, each object on one at a time: %s', async (_label, enqueueFirst) => {
    const time = new ManualTime();
    const probe = new Probe();
    const release = gate();
    let running = 0;
    const allRunning = gate();
    probe.behaviour = async () => {
      running++;
      if (running === WORKERS) allRunning.open();
      await release.promise;
      return undefined;
    };
    const { store, queue, dispatcher } = multiWorkerQueue(time, { registry: new ReconcilerRegistry([probe.reconciler()]) });
    await dispatcher.start();
    const names = Array.from({ length: WORKERS }, (_, i) => `w${i}`);
    for (const name of names) await store.create(widget(name));
    if (enqueueFirst) await queue.enqueueMany(names.map((n) => widgetKey(n)));
    queue.start();
    if (!enqueueFirst) await queue.enqueueMany(names.map((n) => widgetKey(n)));
    await allRunning.promise;
    expect(dispatcher.load()).toEqual(Array.from({ length: WORKERS }, () => 1));
    release.open();
    await queue.idle();
    expect(names.map((n) => probe.runs(n))).toEqual(names.map(() => 1));
    expect(probe.maxConcurrentPerObject()).toBe(1);
    await queue.stop();
    await dispatcher.stop();
  });

  it('retries a request whose worker died mid-reconcile on a replacement worker', async () => {
    const time = new ManualTime();
    const probe = new Probe();
    const entered = gate();
    probe.behaviour = async (_name, run) => {
      if (run === 1) {
        entered.open();
        await new Promise(() => {}); // the worker dies before this reconcile ends
      }
      return undefined;
    };
    const { store, queue, dispatcher, spawned } = multiWorkerQueue(time, { registry: new ReconcilerRegistry([probe.reconciler()]) }, 1);
    await dispatcher.start();
    await store.create(widget('a'));
    queue.start();
    await queue.enqueue(widgetKey('a'));
    await entered.promise;
    spawned[0]?.crash();
    await queue.idle();
    // The queue's crash path retries after its backoff; the replacement worker runs it.
    await time.advance(1000, () => queue.idle());
    await queue.idle();
    expect(spawned).toHaveLength(2);
    expect(probe.runs('a')).toBe(2);
    expect((await store.get(widgetKey('a')))?.status).toMatchObject({ probed: true });
    expect(queue.counters.failed).toBe(1);
    await queue.stop();
    await dispatcher.stop();
  });

  it('fails to start, without restarting it in a loop, when a worker dies before it is ready', async () => {
    const workers = channelWorkers({ registry: new ReconcilerRegistry([]), clock: new ManualTime() });
    const dispatcher = new ReconcileDispatcher({
      workers: 1,
      spawn: (index) => {
        const worker = workers.spawn(index);
        worker.onExit(() => {});
        queueMicrotask(() => workers.spawned[index]?.crash());
        return worker;
      },
      store: new MemoryObjectStore(),
      queue: () => new InProcessWorkQueue({ handler: async () => ({ type: 'done' }) }),
      logger: silentLogger,
    });
    await expect(dispatcher.start()).rejects.toThrow(/reconcile worker 0 exited before it was ready: crashed/);
    expect(workers.spawned).toHaveLength(1);
    await expect(dispatcher.handler(widgetKey('a'), 0)).rejects.toThrow(/no reconcile worker is running/);
  });

  it.each([0, 1.5])('refuses %s workers', (workers) => {
    expect(
      () => new ReconcileDispatcher({ workers, spawn: channelWorkers({ registry: new ReconcilerRegistry([]), clock: new ManualTime() }).spawn, store: new MemoryObjectStore(), queue: () => new InProcessWorkQueue({ handler: async () => ({ type: 'done' }) }), logger: silentLogger }),
    ).toThrow(/workers must be an integer ≥ 1/);
  });
});
