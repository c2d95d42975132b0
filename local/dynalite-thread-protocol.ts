import { z } from 'zod';

/** What the embedded store's thread is told: where LevelDB lives (absent: in memory) and the socket to listen on. */
export const dynaliteThreadDataSchema = z.object({ path: z.string().optional(), socketPath: z.string() });
export type DynaliteThreadData = z.infer<typeof dynaliteThreadDataSchema>;

/** One DynamoDB HTTP request handed to the store's thread over its port instead of the socket (ADR 0116). */
export const dynaliteRequestSchema = z.object({
  type: z.literal('request'),
  id: z.number().int(),
  method: z.string(),
  url: z.string(),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
});
export type DynaliteRequest = z.infer<typeof dynaliteRequestSchema>;

const dynaliteResponseSchema = z.object({
  type: z.literal('response'),
  id: z.number().int(),
  statusCode: z.number().int(),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
});
export type DynaliteResponse = z.infer<typeof dynaliteResponseSchema>;

/** What the thread says back. */
export const dynaliteThreadMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('listening') }),
  z.object({ type: z.literal('failed'), error: z.string() }),
  z.object({ type: z.literal('closed') }),
  /** The answer to 'heap': the thread's V8 heap in use after a full GC (when the process runs with --expose-gc). */
  z.object({ type: z.literal('heap'), usedBytes: z.number() }),
  dynaliteResponseSchema,
]);
export type DynaliteThreadMessage = z.infer<typeof dynaliteThreadMessageSchema>;
