import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReconcilerRegistry } from '../../functions/reconcile/engine/registry.js';
import {
  CONDITION_RECONCILE_SUCCEEDED,
  REASON_RETRIES_EXHAUSTED,
  REASON_SUCCEEDED,
} from '../../functions/reconcile/engine/work/reconcile-condition.js';
import type { RetryPolicy } from '../../functions/reconcile/engine/work/retry-policy.js';
import { conditionsOf, findCondition } from '../../shared/contracts/conditions.js';
import { keyString } from '../../shared/contracts/object.js';
import { TerminalError, TransientError } from '../../shared/errors/index.js';
import type { ObjectStore } from '../../shared/ports/object-store.js';
import type { ObjectVersion, ReconcileRequest, WorkQueue } from '../../shared/ports/work-queue.js';
import { gate, Probe, widget, widgetKey } from '../support/probe-reconciler.js';

/** What the suite needs from one WorkQueue implementation, wired to processRequest. */
export interface WorkQueueHarness {
  /** The queue under test; reconcilers' ctx.queue is this queue too. */
  queue: WorkQueue;
  store: ObjectStore;
  /** Begins consuming. */
  start(): Promise<void>;
  /** Waits until nothing due now is pending or running (retry backoffs may be waited out). */
  settle(): Promise<void>;
  /** Lets `seconds` pass (firing delayed requests and backoffs due in it), then settles. */
  elapse(seconds: number): Promise<void>;
  /** Lets time pass until `predicate` holds; fails after a bound. */
  until(predicate: () => boolean | Promise<boolean>): Promise<void>;
  /** Requests in the dead-letter place so far. */
  deadLetters(): Promise<ReconcileRequest[]>;
  /**
   * The queue drops a change's request when the object's running reconcile read the version the
   * change made (ADR 0137). Queues that do not may run it again; none may drop any other request.
   */
  dropsChangesAlreadyRead?: boolean;
  close(): Promise<void>;
}

export interface HarnessSetup {
  registry: ReconcilerRegistry;
  policy: RetryPolicy;
}

export const CONFORMANCE_POLICY: RetryPolicy = { maxAttempts: 3, baseDelaySeconds: 1, maxDelaySeconds: 2 };

/**
 * The work semantics of ARCHITECTURE.md, for any WorkQueue: one reconcile in flight per object,
 * bursts coalesced, delays of any length, exponential backoff, dead-letter with a condition,
 * TerminalError without retries, and a later success clearing the condition.
 */
export function describeWorkQueueConformance(
  name: string,
  makeHarness: (setup: HarnessSetup) => Promise<WorkQueueHarness>,
): void {
  describe(`WorkQueue conformance: ${name}`, () => {
    let probe: Probe;
    let h: WorkQueueHarness;

    beforeEach(async () => {
      probe = new Probe();
      h = await makeHarness({ registry: new ReconcilerRegistry([probe.reconciler()]), policy: CONFORMANCE_POLICY });
    });

    afterEach(async () => {
      await h.close();
    });

    const condition = async (name: string) => {
      const object = await h.store.get(widgetKey(name));
      return findCondition(conditionsOf(object?.status), CONDITION_RECONCILE_SUCCEEDED);
    };

    it('reconciles an enqueued object and writes its status', async () => {
      await h.store.create(widget('a'));
      await h.start();
      await h.queue.enqueue(widgetKey('a'));
      await h.settle();
      expect(probe.runs('a')).toBe(1);
      const stored = await h.store.get(widgetKey('a'));
      expect(stored?.status).toMatchObject({ probed: true, observedGeneration: 1 });
      expect(await condition('a')).toBeUndefined();
    });

    it('collapses a burst of enqueues of a pending object into one reconcile', async () => {
      await h.store.create(widget('a'));
      await h.store.create(widget('b'));
      for (let i = 0; i < 20; i++) await h.queue.enqueue(widgetKey('a'));
      await h.queue.enqueueMany([widgetKey('a'), widgetKey('b'), widgetKey('a'), widgetKey('b')]);
      await h.start();
      await h.settle();
      expect([probe.runs('a'), probe.runs('b')]).toEqual([1, 1]);
    });

    it('never runs one object twice at once; a burst during a run adds exactly one more run', async () => {
      await h.store.create(widget('a'));
      const entered = gate();
      const release = gate();
      probe.behaviour = async (_name, run) => {
        if (run === 1) {
          entered.open();
          await release.promise;
        }
        return undefined;
      };
      await h.start();
      await h.queue.enqueue(widgetKey('a'));
      await entered.promise;
      for (let i = 0; i < 10; i++) await h.queue.enqueue(widgetKey('a'));
      release.open();
      await h.settle();
      expect(probe.runs('a')).toBe(2);
      expect(probe.maxConcurrentPerObject()).toBe(1);
    });

    /** Widget `b`'s version after a spec change, as a change's cause. */
    const changeB = async (size: number): Promise<ObjectVersion> => {
      const current = await h.store.get(widgetKey('b'));
      if (!current) throw new Error('widget b is missing');
      const changed = await h.store.update({ ...current, spec: { size } });
      return { uid: changed.metadata.uid, resourceVersion: changed.metadata.resourceVersion };
    };

    /** Reads widget `b` through the run's store and writes it back with a label. */
    const labelB = async (store: ObjectStore): Promise<void> => {
      const b = await store.get(widgetKey('b'));
      if (b) await store.update({ ...b, metadata: { ...b.metadata, labels: { touched: 'yes' } } });
    };

    /** Run 1 of `a` waits for the test between `before` and `after`; the test changes `b` meanwhile. */
    const gatedFirstRun = (steps: { before?: (store: ObjectStore) => Promise<unknown>; after?: (store: ObjectStore) => Promise<unknown> }) => {
      const entered = gate();
      const release = gate();
      probe.behaviour = async (_name, run, store) => {
        if (run !== 1) return undefined;
        await steps.before?.(store);
        entered.open();
        await release.promise;
        await steps.after?.(store);
        return undefined;
      };
      return { entered, release };
    };

    /**
     * Runs `a` once; while that run waits, changes `b` and enqueues `a` with that change as cause
     * (and with `alsoCaused`). Returns how many times `a` ran.
     */
    const runsAfterAChangeDuringARun = async (steps: Parameters<typeof gatedFirstRun>[0], alsoCaused: ObjectVersion[] = []): Promise<number> => {
      await h.store.create(widget('a'));
      await h.store.create(widget('b'));
      const { entered, release } = gatedFirstRun(steps);
      await h.start();
      await h.queue.enqueue(widgetKey('a'));
      await entered.promise;
      await h.queue.enqueueMany([widgetKey('a')], { cause: await changeB(2) });
      for (const cause of alsoCaused) await h.queue.enqueueMany([widgetKey('a')], { cause });
      release.open();
      await h.settle();
      return probe.runs('a');
    };

    it.each([
      ['it read before the change', { before: (store: ObjectStore) => store.get(widgetKey('b')) }],
      ['it did not read', {}],
      ['it read and then wrote', { after: (store: ObjectStore) => labelB(store) }],
    ])('runs again after a change made during a run to an object %s', async (_label, steps) => {
      expect(await runsAfterAChangeDuringARun(steps)).toBe(2);
    });

    it('does not run again for a change whose version the run read (where the queue remembers reads)', async () => {
      const runs = await runsAfterAChangeDuringARun({ after: (store) => store.get(widgetKey('b')) });
      expect(runs).toBe(h.dropsChangesAlreadyRead ? 1 : 2);
    });

    it('runs again when one of the changes made during a run is to a version the run did not read', async () => {
      const runs = await runsAfterAChangeDuringARun({ after: (store) => store.get(widgetKey('b')) }, [{ uid: 'another-object', resourceVersion: '1' }]);
      expect(runs).toBe(2);
    });

    it('honours a requeueAfter longer than any transport delay', async () => {
      await h.store.create(widget('a'));
      probe.behaviour = (_name, run) => (run === 1 ? { requeueAfterSeconds: 3600 } : undefined);
      await h.start();
      await h.queue.enqueue(widgetKey('a'));
      await h.settle();
      await h.elapse(1800);
      expect(probe.runs('a')).toBe(1);
      await h.elapse(1800);
      expect(probe.runs('a')).toBe(2);
    });

    /** Runs `a` `count` times, one run after another. */
    const runsInTurn = async (count: number): Promise<void> => {
      for (let i = 0; i < count; i++) {
        await h.queue.enqueue(widgetKey('a'));
        await h.settle();
      }
    };

    it.each<[string, (run: number) => boolean, number, number]>([
      ['the first three runs ask for one, and the fourth answers them all', (run) => run <= 3, 120, 4],
      ['every run asks for one: one chain goes on, the latest run\'s', () => true, 60, 5],
    ])('lets a successful run answer the delayed runs asked before it, so requeues do not multiply: %s', async (_case, asks, later, runsLater) => {
      await h.store.create(widget('a'));
      probe.behaviour = (_name, run) => (asks(run) ? { requeueAfterSeconds: 60 } : undefined);
      await h.start();
      await runsInTurn(3);
      expect(probe.runs('a')).toBe(3);
      await h.elapse(60);
      expect(probe.runs('a')).toBe(4);
      await h.elapse(later);
      expect(probe.runs('a')).toBe(runsLater);
    });

    /** Run 1 asks for a requeue in 60 s; run 2 fails with `error`; later runs succeed. */
    const requeueThenFailure = (error: () => Error) => {
      probe.behaviour = (_name, run) => {
        if (run === 1) return { requeueAfterSeconds: 60 };
        if (run === 2) throw error();
        return undefined;
      };
    };

    it('lets a run that fails terminally answer nothing: the delayed run asked before it still runs', async () => {
      await h.store.create(widget('a'));
      requeueThenFailure(() => new TerminalError('Invalid', 'no'));
      await h.start();
      await runsInTurn(2);
      await h.elapse(60);
      expect(probe.runs('a')).toBe(3);
      await h.elapse(120);
      expect(probe.runs('a')).toBe(3);
    });

    it('lets the successful retry of a failed run answer the delayed run asked before the failure', async () => {
      await h.store.create(widget('a'));
      requeueThenFailure(() => new TransientError('flaky'));
      await h.start();
      await runsInTurn(2);
      await h.until(() => probe.runs('a') === 3);
      await h.elapse(120);
      expect(probe.runs('a')).toBe(3);
    });

    it('runs a delayed enqueue once it is due, not before', async () => {
      await h.store.create(widget('a'));
      await h.start();
      await h.queue.enqueue(widgetKey('a'), { delaySeconds: 1200 });
      await h.settle();
      expect(probe.runs('a')).toBe(0);
      await h.elapse(1200);
      expect(probe.runs('a')).toBe(1);
    });

    it('retries transient failures with backoff until one succeeds, leaving no failure condition', async () => {
      await h.store.create(widget('a'));
      probe.behaviour = (_name, run) => {
        if (run < 3) throw new TransientError(`flaky ${run}`);
        return undefined;
      };
      await h.start();
      await h.queue.enqueue(widgetKey('a'));
      await h.until(() => probe.runs('a') === 3);
      await h.settle();
      expect(probe.runs('a')).toBe(3);
      expect(await h.deadLetters()).toEqual([]);
      expect(await condition('a')).toBeUndefined();
    });

    it('dead-letters after the last allowed failure, says why on the object, and keeps other objects flowing', async () => {
      await h.store.create(widget('bad'));
      await h.store.create(widget('good'));
      probe.behaviour = (name) => {
        if (name === 'bad') throw new TransientError('boom');
        return undefined;
      };
      await h.start();
      await h.queue.enqueueMany([widgetKey('bad'), widgetKey('good')]);
      await h.until(async () => (await h.deadLetters()).length > 0);
      await h.settle();
      expect((await h.deadLetters()).map(keyString)).toEqual([keyString(widgetKey('bad'))]);
      expect(probe.runs('bad')).toBe(CONFORMANCE_POLICY.maxAttempts);
      expect(probe.runs('good')).toBe(1);
      const failed = await condition('bad');
      expect(failed).toMatchObject({ status: 'False', reason: REASON_RETRIES_EXHAUSTED });
      expect(failed?.message).toContain('boom');

      probe.behaviour = () => undefined;
      await h.queue.enqueue(widgetKey('bad'));
      await h.settle();
      expect(await condition('bad')).toMatchObject({ status: 'True', reason: REASON_SUCCEEDED });
    });

    it('does not retry a TerminalError and records it on the object at once', async () => {
      await h.store.create(widget('a'));
      probe.behaviour = () => {
        throw new TerminalError('InvalidSize', 'spec.size must be even');
      };
      await h.start();
      await h.queue.enqueue(widgetKey('a'));
      await h.settle();
      await h.elapse(CONFORMANCE_POLICY.maxDelaySeconds * 2);
      expect(probe.runs('a')).toBe(1);
      expect(await condition('a')).toMatchObject({
        status: 'False',
        reason: 'InvalidSize',
        message: 'spec.size must be even',
      });
      expect(await h.deadLetters()).toEqual([]);
    });

    it('drops a request for an object that no longer exists without failing', async () => {
      await h.start();
      await h.queue.enqueue(widgetKey('ghost'));
      await h.settle();
      expect(probe.runs('ghost')).toBe(0);
      expect(await h.deadLetters()).toEqual([]);
    });
  });
}
