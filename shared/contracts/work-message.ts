import { z } from 'zod';

/**
 * The body of a reconcile message on a kind's queue: the object's key and nothing else
 * (reconcilers are level-triggered), plus the due time of a delayed request. A message
 * without `dueAt` is the one the queued marker stands for; one with `dueAt` is a delayed
 * request (a requeueAfter or the retry of a failure, which also carries `failures`) that is
 * re-sent in hops of at most 900 s until it is due; a requeue also names the run that asked for
 * it (`awaits`).
 */
export const WorkMessageSchema = z.object({
  v: z.literal(1),
  key: z.object({
    group: z.string(),
    kind: z.string().min(1),
    namespace: z.string().min(1),
    name: z.string().min(1),
  }),
  /** epoch ms */
  dueAt: z.number().int().optional(),
  /** Failed tries so far: set on the retry of a failed request. */
  failures: z.number().int().min(0).optional(),
  /**
   * The lease token of the run that asked for this delayed request with a requeueAfter. The
   * object's work record names the requeue still owed; a later successful run answers it, and a
   * message whose token the record no longer names is dropped (docs/adr/0144). Re-sent hops keep
   * it; a message without it always runs.
   */
  awaits: z.string().min(1).max(200).optional(),
  /**
   * Run this request in an invocation of its own: set by the dispatcher on the requests of a
   * reconciler invocation that crashed, so the one that crashes it is found and counted alone
   * (docs/adr/0111). Queues that do not batch invocations ignore it.
   */
  isolate: z.literal(true).optional(),
});

export type WorkMessage = z.infer<typeof WorkMessageSchema>;

export function parseWorkMessage(body: string): WorkMessage | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  const parsed = WorkMessageSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/** SQS's longest DelaySeconds. */
export const SQS_MAX_DELAY_SECONDS = 900;

/**
 * The next hop of a delayed request: 'due' when it should run now (within `slackMs`), else the
 * delay of the next send, at most `maxHopSeconds`.
 */
export function nextHop(
  dueAt: number,
  nowMs: number,
  maxHopSeconds = SQS_MAX_DELAY_SECONDS,
  slackMs = 500,
): 'due' | { delaySeconds: number } {
  const remainingMs = dueAt - nowMs;
  if (remainingMs <= slackMs) return 'due';
  return { delaySeconds: Math.min(maxHopSeconds, Math.ceil(remainingMs / 1000)) };
}
