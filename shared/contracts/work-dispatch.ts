import { z } from 'zod';
import { type CloudEvent, CloudEventSchema, parseCloudEventEnvelope } from './cloud-event-message.js';
import type { GroupKind, ObjectKey } from './object.js';
import { type WorkMessage, WorkMessageSchema } from './work-message.js';

/**
 * The shared work queue and its dispatcher (docs/adr/0110-work-topology-at-rest-cost.md): what
 * the queue carries besides ordinary work messages, and what the dispatcher hands a kind's
 * reconciler function when it invokes it asynchronously.
 */

/** `<group>/<Kind>`: how a kind is named in environment maps, invocations and cloud-event messages. */
export function kindKey(kind: GroupKind): string {
  return `${kind.group}/${kind.kind}`;
}

/** The kind a `<group>/<Kind>` names; undefined when it has no slash or no kind. */
export function parseKindKey(text: string): GroupKind | undefined {
  const slash = text.lastIndexOf('/');
  if (slash === -1 || slash === text.length - 1) return undefined;
  return { group: text.slice(0, slash), kind: text.slice(slash + 1) };
}

/** Keys per resync message: a page of one cluster's objects stays far below SQS's 256 KiB. */
export const RESYNC_KEYS_PER_MESSAGE = 200;

const ObjectKeySchema = z.object({
  group: z.string(),
  kind: z.string().min(1),
  namespace: z.string().min(1),
  name: z.string().min(1),
});

/**
 * The periodic resync of one cluster (or one page of it): the keys of its objects, of any kinds.
 * The dispatcher fans it out as one invocation per kind; each reconcile takes its work record
 * directly, as a due delayed request does (no enqueue write, and it steps aside for a pending one).
 */
export const ResyncMessageSchema = z.object({
  v: z.literal(1),
  resync: z.object({
    /** `<namespace>/<cluster name>`, or the namespace alone for objects of no cluster: for logs. */
    scope: z.string(),
    keys: z.array(ObjectKeySchema).min(1).max(RESYNC_KEYS_PER_MESSAGE),
  }),
});

export type ResyncMessage = z.infer<typeof ResyncMessageSchema>;

/** The payload of one asynchronous invocation of a kind's reconciler function. */
export const ReconcilerInvocationSchema = z.object({
  v: z.literal(1),
  /** `<group>/<Kind>` the function must serve. */
  kind: z.string().min(1),
  messages: z.array(WorkMessageSchema),
  cloudEvents: z.array(CloudEventSchema),
});

export type ReconcilerInvocation = z.infer<typeof ReconcilerInvocationSchema>;

/**
 * What Lambda sends to a reconciler's on-failure destination (the shared work queue) when an
 * asynchronous invocation ended in a function error (a crash, a timeout) and no retry is left
 * (https://docs.aws.amazon.com/lambda/latest/dg/invocation-async-retain-records.html).
 */
export const InvocationFailureRecordSchema = z.looseObject({
  requestContext: z.looseObject({
    condition: z.string(),
    approximateInvokeCount: z.number().int().optional(),
  }),
  requestPayload: ReconcilerInvocationSchema,
});

/** A message of the shared work queue, as the dispatcher reads it. */
export type SharedQueueMessage =
  | { type: 'work'; message: WorkMessage }
  | { type: 'cloudEvent'; kind: GroupKind; event: CloudEvent }
  | { type: 'resync'; scope: string; keys: ObjectKey[] }
  | { type: 'invocationFailed'; condition: string; invocation: ReconcilerInvocation };

/** Reads one shared-queue message body; undefined for anything the dispatcher cannot route. */
export function parseSharedQueueMessage(body: string): SharedQueueMessage | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  const work = WorkMessageSchema.safeParse(json);
  if (work.success) return { type: 'work', message: work.data };
  const resync = ResyncMessageSchema.safeParse(json);
  if (resync.success) return { type: 'resync', scope: resync.data.resync.scope, keys: resync.data.resync.keys };
  const failure = InvocationFailureRecordSchema.safeParse(json);
  if (failure.success) return { type: 'invocationFailed', condition: failure.data.requestContext.condition, invocation: failure.data.requestPayload };
  const cloud = parseCloudEventEnvelope(body);
  const kind = cloud?.kind === undefined ? undefined : parseKindKey(cloud.kind);
  if (cloud && kind) return { type: 'cloudEvent', kind, event: cloud.cloudEvent };
  return undefined;
}

/** Parses an invocation payload once, at the reconciler's edge. */
export function parseReconcilerInvocation(event: unknown): ReconcilerInvocation | undefined {
  const parsed = ReconcilerInvocationSchema.safeParse(event);
  return parsed.success ? parsed.data : undefined;
}
