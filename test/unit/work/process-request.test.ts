import { beforeEach, describe, expect, it } from 'vitest';
import { processRequest } from '../../../functions/reconcile/engine/process-request.js';
import { ReconcilerRegistry } from '../../../functions/reconcile/engine/registry.js';
import type { ReconcileContext } from '../../../functions/reconcile/engine/skeleton/types.js';
import { CONDITION_RECONCILE_SUCCEEDED } from '../../../functions/reconcile/engine/work/reconcile-condition.js';
import { conditionsOf, findCondition } from '../../../shared/contracts/conditions.js';
import { TerminalError, TransientError } from '../../../shared/errors/index.js';
import { silentLogger } from '../../../shared/ports/logger.js';
import { MemoryObjectStore } from '../../../shared/store/memory-store.js';
import type { RequestOutcome } from '../../../shared/work/request-outcome.js';
import { FakeClock } from '../../support/fake-clock.js';
import { Probe, type ProbeBehaviour, widget, widgetKey } from '../../support/probe-reconciler.js';

const policy = { maxAttempts: 3, baseDelaySeconds: 2, maxDelaySeconds: 10 };
let probe: Probe;
let store: MemoryObjectStore;
let context: ReconcileContext;

beforeEach(async () => {
  probe = new Probe();
  const clock = new FakeClock();
  store = new MemoryObjectStore({ clock });
  context = {
    store,
    clock,
    logger: silentLogger,
    queue: { enqueue: async () => {}, enqueueMany: async () => {} },
  };
  await store.create(widget('a'));
});

const run = (failures: number, name = 'a') =>
  processRequest(widgetKey(name), failures, {
    registry: new ReconcilerRegistry([probe.reconciler()]),
    context: () => context,
    policy,
  });

const conditionOfA = async () => findCondition(conditionsOf((await store.get(widgetKey('a')))?.status), CONDITION_RECONCILE_SUCCEEDED);

describe('Function: processRequest', () => {
  it.each<[string, ProbeBehaviour, number, RequestOutcome, string | undefined]>([
    // The widget is read and its status written: a version the run wrote is not one it read (ADR 0137).
    ['success', () => undefined, 0, { type: 'done', read: new Map() }, undefined],
    ['success asking for a requeue', () => ({ requeueAfterSeconds: 30 }), 0, { type: 'requeue', afterSeconds: 30, read: new Map() }, undefined],
    ['first transient failure', () => { throw new TransientError('x'); }, 0, { type: 'retry', afterSeconds: 2, error: 'x' }, undefined],
    ['second transient failure', () => { throw new TransientError('x'); }, 1, { type: 'retry', afterSeconds: 4, error: 'x' }, undefined],
    ['last allowed failure', () => { throw new Error('boom'); }, 2, { type: 'deadLetter', error: 'boom' }, 'False/RetriesExhausted'],
    ['terminal failure on the first try', () => { throw new TerminalError('Bad', 'no'); }, 0, { type: 'terminal', reason: 'Bad', error: 'no' }, 'False/Bad'],
  ])('%s', async (_title, behaviour, failures, outcome, condition) => {
    probe.behaviour = behaviour;
    expect(await run(failures)).toEqual(outcome);
    const found = await conditionOfA();
    expect(found ? `${found.status}/${found.reason}` : undefined).toBe(condition);
  });

  it('is done for an object that does not exist, without running the reconciler, and says it is gone', async () => {
    expect(await run(0, 'ghost')).toEqual({ type: 'done', read: new Map(), gone: true });
    expect(probe.runs('ghost')).toBe(0);
  });

  it.each<[string, string[], boolean]>([
    ['its finalizer was the last: the object went with it', ['test.capless.io/f'], true],
    ['another finalizer keeps it', ['test.capless.io/f', 'someone.else/keep'], false],
  ])('says a deletion that removed its finalizer left the object gone when %s (ADR 0149)', async (_title, finalizers, gone) => {
    const b = await store.create({ ...widget('b'), metadata: { ...widget('b').metadata, finalizers } });
    await store.delete(widgetKey('b'));
    expect((await store.get(widgetKey('b')))?.metadata.uid).toBe(b.metadata.uid);
    const outcome = await processRequest(widgetKey('b'), 0, {
      registry: new ReconcilerRegistry([{ ...probe.reconciler(), finalizer: 'test.capless.io/f' }]),
      context: () => context,
      policy,
    });
    expect(outcome.type).toBe('done');
    expect(outcome.type === 'done' && outcome.gone === true).toBe(gone);
    expect((await store.get(widgetKey('b'))) === undefined).toBe(gone);
  });

  it('flips the condition to True on the next success, and leaves it alone after', async () => {
    probe.behaviour = () => {
      throw new TerminalError('Bad', 'no');
    };
    await run(0);
    probe.behaviour = () => undefined;
    await run(0);
    expect(await conditionOfA()).toMatchObject({ status: 'True', reason: 'Succeeded' });
    const version = (await store.get(widgetKey('a')))?.metadata.resourceVersion;
    await run(0);
    expect((await store.get(widgetKey('a')))?.metadata.resourceVersion).toBe(version);
  });
});
