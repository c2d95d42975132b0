import { type Condition, type ConditionInput, conditionsOf, setCondition } from '../../../../shared/contracts/conditions.js';
import { deepEqual } from '../../../../shared/contracts/json.js';
import {
  ANNOTATION_MANAGED_BY,
  type ObjectKey,
  type StoredObject,
  hasFinalizer,
  isDeleting,
  keyOf,
} from '../../../../shared/contracts/object.js';
import { isConflict, isNotFound } from '../../../../shared/errors/index.js';
import { timestamp } from '../../../../shared/ports/clock.js';
import { generationSourceChanged } from '../../../../shared/store/generation.js';
import { pausedCondition } from './pause.js';
import type {
  Phase,
  PhaseResult,
  ReconcileContext,
  ReconcileResult,
  ReconcilerDefinition,
  Scope,
} from './types.js';

const STATUS_WRITE_ATTEMPTS = 5;

/**
 * The one skeleton every reconciler runs in (CAPI's Reconcile, generic over the scope):
 * fetch (gone ⇒ done) → pause (the object's own, or its Cluster's: ADR 0146) → ensure finalizer
 * → phases or delete phases → one write of the status with observedGeneration (and of the
 * metadata and spec the phases changed, if any), re-reading on conflict → drop the finalizer
 * once deletion is done.
 * Level-triggered: it reads the object afresh every run and trusts nothing from earlier runs.
 */
export async function runReconcile<S extends Scope>(
  definition: ReconcilerDefinition<S>,
  ctx: ReconcileContext,
  key: ObjectKey,
): Promise<ReconcileResult> {
  const fetched = await ctx.store.get(key);
  if (!fetched) return { gone: true };
  // Cluster API's ResourceIsNotExternallyManaged predicate: no event of such an object reaches its reconciler.
  if (definition.skipsExternallyManaged && fetched.metadata.annotations?.[ANNOTATION_MANAGED_BY] !== undefined) return {};
  const logger = ctx.logger.child({ kind: key.kind, namespace: key.namespace, name: key.name });
  const scopedCtx: ReconcileContext = { ...ctx, logger };

  // Pause before the finalizer, as Cluster API does: a paused object is left as it is, and an
  // object whose finalizers `clusterctl move` took off before deleting it is not given one back.
  const paused = await pausedCondition(ctx.store, definition, fetched);
  if (paused.status === 'True') {
    await writePausedOnly(scopedCtx, fetched, paused);
    return {};
  }

  let object = fetched;
  if (!isDeleting(object) && definition.finalizer && !hasFinalizer(object, definition.finalizer)) {
    object = await ctx.store.update(withFinalizer(object, definition.finalizer));
  }

  const scope = await definition.createScope(scopedCtx, object);
  scope.conditions.push(paused);

  const deleting = isDeleting(object);
  const outcome = await runPhases(deleting ? definition.deletePhases : definition.phases, scope);
  if (deleting && outcome.finished && definition.finalizer) {
    // Finalizer first: when it is the last one the object goes with it, and a status written
    // just before would be read by no one. Another finalizer keeps the object: then the status.
    const remaining = await removeFinalizer(ctx, scope.object, definition.finalizer);
    if (!remaining) return { gone: true };
    scope.object = remaining;
    await writeStatus(definition, scope, 'status only');
    return {};
  }
  await writeStatus(definition, scope);
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

function withFinalizer(object: StoredObject, finalizer: string): StoredObject {
  return { ...object, metadata: { ...object.metadata, finalizers: [...(object.metadata.finalizers ?? []), finalizer] } };
}

/**
 * The run's one write. When the phases changed the object's own metadata or spec
 * (`scope.desired`), those and the status go in one write (writeWithOwnChanges); otherwise the
 * status alone.
 */
async function writeStatus<S extends Scope>(definition: ReconcilerDefinition<S>, scope: S, what: 'with own changes' | 'status only' = 'with own changes'): Promise<void> {
  const { fields } = definition.computeStatus(scope);
  const now = timestamp(scope.ctx.clock);
  // After the finalizer went, `desired` still describes the version before it: not written over it.
  const desired = what === 'with own changes' ? scope.desired : undefined;
  if (!desired || sameExceptStatus(desired, scope.object)) return writeStatusOnly(scope, fields, now);
  return writeWithOwnChanges(scope, desired, fields, now);
}

/**
 * Metadata, spec and status in one write, whose status observes the generation that write makes.
 * On a conflict it re-reads: when another writer changed only the status (a health check marking
 * the Machine), what the phases derived still holds and goes onto the fresh copy, keeping that
 * writer's conditions; when the metadata or spec changed, the conflict is thrown and the retried
 * reconcile derives its changes again from the fresh version.
 */
async function writeWithOwnChanges(scope: Scope, desired: StoredObject, fields: Record<string, unknown>, now: string): Promise<void> {
  let wanted = desired;
  await writeRetryingOnConflict(
    scope,
    (current) => {
      const generation = current.metadata.generation + (generationSourceChanged(current, wanted) ? 1 : 0);
      return scope.ctx.store.updateWithStatus({ ...wanted, status: buildStatus(current, fields, scope, now, generation) });
    },
    (fresh, current) => {
      const onlyStatusMoved = sameExceptStatus(fresh, { ...current, metadata: { ...current.metadata, resourceVersion: fresh.metadata.resourceVersion } });
      if (onlyStatusMoved) wanted = { ...wanted, metadata: { ...wanted.metadata, resourceVersion: fresh.metadata.resourceVersion } };
      return onlyStatusMoved;
    },
  );
}

/**
 * A paused object's one write: the Paused condition alone, every other status field and
 * observedGeneration left as they are (Cluster API patches only its owned Paused condition), and
 * nothing written when the condition already says so.
 */
async function writePausedOnly(ctx: ReconcileContext, object: StoredObject, paused: ConditionInput): Promise<void> {
  const scope: Scope = { ctx, object, conditions: [] };
  const now = timestamp(ctx.clock);
  await writeRetryingOnConflict(
    scope,
    async (current) => {
      const conditions = setCondition(conditionsOf(current.status), paused, now, current.metadata.generation);
      const status = { ...current.status, conditions };
      return deepEqual(status, current.status ?? {}) ? undefined : ctx.store.updateStatus({ ...current, status });
    },
    () => true,
  );
}

/**
 * Writes status once, conditional on resourceVersion. On a conflict it re-reads the object and
 * writes the same computed status onto the fresh copy: the status describes what this run saw,
 * and observedGeneration says which generation that was.
 */
async function writeStatusOnly(scope: Scope, fields: Record<string, unknown>, now: string): Promise<void> {
  const observedGeneration = scope.object.metadata.generation;
  await writeRetryingOnConflict(
    scope,
    async (current) => {
      const status = buildStatus(current, fields, scope, now, observedGeneration);
      return deepEqual(status, current.status ?? {}) ? undefined : scope.ctx.store.updateStatus({ ...current, status });
    },
    () => true,
  );
}

/**
 * Runs `write` on `scope.object` (which it leaves as written; `undefined`: nothing to write). On a
 * conflict it re-reads, and writes again on the fresh copy when `rebase` accepts it, up to
 * STATUS_WRITE_ATTEMPTS times; otherwise the conflict is thrown. A removed object ends it.
 */
async function writeRetryingOnConflict(
  scope: Scope,
  write: (current: StoredObject) => Promise<StoredObject | undefined>,
  rebase: (fresh: StoredObject, current: StoredObject) => boolean,
): Promise<void> {
  for (let attempt = 1; attempt <= STATUS_WRITE_ATTEMPTS; attempt++) {
    const current = scope.object;
    try {
      scope.object = (await write(current)) ?? current;
      return;
    } catch (error) {
      if (isNotFound(error)) return;
      if (!isConflict(error) || attempt === STATUS_WRITE_ATTEMPTS) throw error;
      const fresh = await scope.ctx.store.get(keyOf(current));
      if (!fresh) return;
      if (!rebase(fresh, current)) throw error;
      scope.object = fresh;
    }
  }
}

function sameExceptStatus(a: StoredObject, b: StoredObject): boolean {
  const { status: _a, ...restA } = a;
  const { status: _b, ...restB } = b;
  return deepEqual(restA, restB);
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

/** Drops the finalizer; the object as it then is while other finalizers keep it, else undefined (removed). */
async function removeFinalizer(ctx: ReconcileContext, object: StoredObject, finalizer: string): Promise<StoredObject | undefined> {
  let current: StoredObject | undefined = object;
  for (let attempt = 1; current && attempt <= STATUS_WRITE_ATTEMPTS; attempt++) {
    if (!hasFinalizer(current, finalizer)) return stillThere(current);
    const finalizers = (current.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    try {
      return stillThere(await ctx.store.update({ ...current, metadata: { ...current.metadata, finalizers } }));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      if (!isConflict(error) || attempt === STATUS_WRITE_ATTEMPTS) throw error;
      current = await ctx.store.get(keyOf(current));
    }
  }
  return undefined;
}

/** A deleting object with no finalizers left is gone (the store removed it on that update). */
function stillThere(object: StoredObject): StoredObject | undefined {
  return (object.metadata.finalizers ?? []).length > 0 ? object : undefined;
}
