import { type Condition, conditionsOf, setCondition } from '../../../../shared/contracts/conditions.js';
import { deepEqual } from '../../../../shared/contracts/json.js';
import {
  ANNOTATION_PAUSED,
  type ObjectKey,
  type StoredObject,
  hasFinalizer,
  isDeleting,
  keyOf,
} from '../../../../shared/contracts/object.js';
import { isConflict, isNotFound } from '../../../../shared/errors/index.js';
import { timestamp } from '../../../../shared/ports/clock.js';
import type {
  Phase,
  PhaseResult,
  ReconcileContext,
  ReconcileResult,
  ReconcilerDefinition,
  Scope,
} from './types.js';

const STATUS_WRITE_ATTEMPTS = 5;
export const CONDITION_PAUSED = 'Paused';

/**
 * The one skeleton every reconciler runs in (CAPI's Reconcile, generic over the scope):
 * fetch (gone ⇒ done) → ensure finalizer → pause → phases or delete phases → one status write
 * with observedGeneration, re-reading on conflict → drop the finalizer once deletion is done.
 * Level-triggered: it reads the object afresh every run and trusts nothing from earlier runs.
 */
export async function runReconcile<S extends Scope>(
  definition: ReconcilerDefinition<S>,
  ctx: ReconcileContext,
  key: ObjectKey,
): Promise<ReconcileResult> {
  const fetched = await ctx.store.get(key);
  if (!fetched) return {};
  const logger = ctx.logger.child({ kind: key.kind, namespace: key.namespace, name: key.name });
  const scopedCtx: ReconcileContext = { ...ctx, logger };

  let object = fetched;
  if (!isDeleting(object) && definition.finalizer && !hasFinalizer(object, definition.finalizer)) {
    object = await ctx.store.update(withFinalizer(object, definition.finalizer));
  }

  const scope = await definition.createScope(scopedCtx, object);
  if (isPaused(object)) {
    scope.conditions.push({ type: CONDITION_PAUSED, status: 'True', reason: 'Paused', message: pausedMessage(object) });
    await writeStatus(definition, scope);
    return {};
  }
  scope.conditions.push({ type: CONDITION_PAUSED, status: 'False', reason: 'NotPaused' });

  const deleting = isDeleting(object);
  const outcome = await runPhases(deleting ? definition.deletePhases : definition.phases, scope);
  await writeStatus(definition, scope);

  if (deleting && outcome.finished && definition.finalizer) {
    await removeFinalizer(ctx, scope.object, definition.finalizer);
    return {};
  }
  return outcome.result;
}

interface PhasesOutcome {
  result: ReconcileResult;
  /** Every phase ran and none asked to wait. */
  finished: boolean;
}

async function runPhases<S extends Scope>(phases: readonly Phase<S>[], scope: S): Promise<PhasesOutcome> {
  let requeueAfterSeconds: number | undefined;
  for (const phase of phases) {
    const result: PhaseResult = (await phase(scope)) ?? {};
    requeueAfterSeconds = lowestNonZero(requeueAfterSeconds, result.requeueAfterSeconds);
    if (result.stop) return { result: resultOf(requeueAfterSeconds), finished: false };
  }
  return { result: resultOf(requeueAfterSeconds), finished: requeueAfterSeconds === undefined };
}

function resultOf(requeueAfterSeconds: number | undefined): ReconcileResult {
  return requeueAfterSeconds === undefined ? {} : { requeueAfterSeconds };
}

/** util.LowestNonZeroResult: the soonest requeue wins. */
export function lowestNonZero(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined || a <= 0) return b !== undefined && b > 0 ? b : undefined;
  if (b === undefined || b <= 0) return a;
  return Math.min(a, b);
}

export function isPaused(object: StoredObject): boolean {
  return object.spec?.paused === true || object.metadata.annotations?.[ANNOTATION_PAUSED] !== undefined;
}

function pausedMessage(object: StoredObject): string {
  return object.spec?.paused === true ? 'spec.paused is true' : `annotation ${ANNOTATION_PAUSED} is set`;
}

function withFinalizer(object: StoredObject, finalizer: string): StoredObject {
  return { ...object, metadata: { ...object.metadata, finalizers: [...(object.metadata.finalizers ?? []), finalizer] } };
}

/**
 * Writes status once, conditional on resourceVersion. On a conflict it re-reads the object and
 * writes the same computed status onto the fresh copy: the status describes what this run saw,
 * and observedGeneration says which generation that was.
 */
async function writeStatus<S extends Scope>(definition: ReconcilerDefinition<S>, scope: S): Promise<void> {
  const { fields } = definition.computeStatus(scope);
  const observedGeneration = scope.object.metadata.generation;
  const now = timestamp(scope.ctx.clock);
  for (let attempt = 1; attempt <= STATUS_WRITE_ATTEMPTS; attempt++) {
    const current = scope.object;
    const status = buildStatus(current, fields, scope, now, observedGeneration);
    if (deepEqual(status, current.status ?? {})) return;
    try {
      scope.object = await scope.ctx.store.updateStatus({ ...current, status });
      return;
    } catch (error) {
      if (isNotFound(error)) return;
      if (!isConflict(error) || attempt === STATUS_WRITE_ATTEMPTS) throw error;
      const fresh = await scope.ctx.store.get(keyOf(current));
      if (!fresh) return;
      scope.object = fresh;
    }
  }
}

function buildStatus(
  current: StoredObject,
  fields: Record<string, unknown>,
  scope: Scope,
  now: string,
  observedGeneration: number,
): Record<string, unknown> {
  let conditions: Condition[] = conditionsOf(current.status);
  for (const input of scope.conditions) conditions = setCondition(conditions, input, now, observedGeneration);
  return { ...fields, conditions, observedGeneration };
}

async function removeFinalizer(ctx: ReconcileContext, object: StoredObject, finalizer: string): Promise<void> {
  let current: StoredObject | undefined = object;
  for (let attempt = 1; current && attempt <= STATUS_WRITE_ATTEMPTS; attempt++) {
    if (!hasFinalizer(current, finalizer)) return;
    const finalizers = (current.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    try {
      await ctx.store.update({ ...current, metadata: { ...current.metadata, finalizers } });
      return;
    } catch (error) {
      if (isNotFound(error)) return;
      if (!isConflict(error) || attempt === STATUS_WRITE_ATTEMPTS) throw error;
      current = await ctx.store.get(keyOf(current));
    }
  }
}
