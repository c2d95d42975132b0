import { z } from 'zod';
import { isRecord } from '../../shared/contracts/json.js';
import type { StoredObject } from '../../shared/contracts/object.js';
import type { ReconcileRequest } from '../../shared/ports/work-queue.js';
import type { RequestOutcome } from '../../shared/work/request-outcome.js';

/**
 * The messages between the dispatcher (main thread: the work queue, the store) and a reconcile
 * worker (ADR 0115). Both ends are this repository's code, but every message is still parsed
 * once where it arrives: a worker that dies half-way or a version skew must not turn into a
 * wrong type inside the queue.
 */

const keySchema = z.object({
  group: z.string(),
  kind: z.string().min(1),
  namespace: z.string().min(1),
  name: z.string().min(1),
});

/** An object as a store returns it: checked for the fields everything downstream relies on. */
const storedObjectSchema = z.custom<StoredObject>(
  (value) =>
    isRecord(value) &&
    typeof value.apiVersion === 'string' &&
    typeof value.kind === 'string' &&
    isRecord(value.metadata) &&
    typeof value.metadata.name === 'string' &&
    typeof value.metadata.namespace === 'string' &&
    typeof value.metadata.uid === 'string' &&
    typeof value.metadata.resourceVersion === 'string',
  'a stored object',
);

/** uid → resourceVersion (ReadVersions); a Map survives postMessage's structured clone. */
const readSchema = z.map(z.string(), z.string()).optional();
const goneSchema = z.literal(true).optional();

const outcomeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('done'), read: readSchema, gone: goneSchema }),
  z.object({ type: z.literal('requeue'), afterSeconds: z.number().min(0), read: readSchema, gone: goneSchema }),
  z.object({ type: z.literal('retry'), afterSeconds: z.number().min(0), error: z.string() }),
  z.object({ type: z.literal('deadLetter'), error: z.string() }),
  z.object({ type: z.literal('terminal'), reason: z.string(), error: z.string() }),
]);

export const STORE_METHODS = ['create', 'get', 'update', 'updateStatus', 'updateWithStatus', 'delete', 'list', 'listByCluster', 'listByOwner'] as const;
export type StoreMethod = (typeof STORE_METHODS)[number];

/** An error as it crosses a thread: its class name and what the API and retry logic read off it. */
export const serializedErrorSchema = z.object({
  name: z.string(),
  message: z.string(),
  reason: z.string().optional(),
  causes: z.array(z.object({ field: z.string().optional(), reason: z.string().optional(), message: z.string() })).optional(),
  details: z.object({ group: z.string().optional(), kind: z.string().optional(), name: z.string().optional() }).optional(),
});
export type SerializedError = z.infer<typeof serializedErrorSchema>;

/** Dispatcher → worker. */
export const toWorkerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('reconcile'), id: z.number().int(), request: keySchema, failures: z.number().int().min(0) }),
  /**
   * `json` is the result as JSON text (absent for `undefined`): copying one string across the port
   * costs the dispatcher's thread a fraction of structured-cloning the object graph (ADR 0115).
   */
  z.object({ type: z.literal('storeResult'), id: z.number().int(), json: z.string().optional() }),
  z.object({ type: z.literal('storeError'), id: z.number().int(), error: serializedErrorSchema }),
]);
export type ToWorker = z.infer<typeof toWorkerSchema>;

/** Worker → dispatcher. */
export const fromWorkerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('outcome'), id: z.number().int(), outcome: outcomeSchema }),
  z.object({ type: z.literal('store'), id: z.number().int(), method: z.enum(STORE_METHODS), args: z.array(z.unknown()) }),
  z.object({ type: z.literal('enqueue'), requests: z.array(keySchema), delaySeconds: z.number().min(0).optional() }),
  z.object({
    type: z.literal('log'),
    level: z.enum(['debug', 'info', 'warn', 'error']),
    message: z.string(),
    fields: z.record(z.string(), z.unknown()).optional(),
  }),
]);
export type FromWorker = z.infer<typeof fromWorkerSchema>;

/** What a store call returns, per method, parsed on the worker's side. */
export const storeResultSchemas = {
  create: storedObjectSchema,
  get: storedObjectSchema.optional(),
  update: storedObjectSchema,
  updateStatus: storedObjectSchema,
  updateWithStatus: storedObjectSchema,
  delete: z.object({ object: storedObjectSchema, removed: z.boolean() }),
  list: z.object({ items: z.array(storedObjectSchema), continue: z.string().optional() }),
  listByCluster: z.array(storedObjectSchema),
  listByOwner: z.array(storedObjectSchema),
} satisfies Record<StoreMethod, z.ZodType>;

/** The end of a channel either side holds: a Worker, its parentPort, or a MessagePort. */
export interface Channel {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
}

export type { ReconcileRequest, RequestOutcome };
