import { z } from 'zod';

/** What the embedded store's thread is told: where LevelDB lives (absent: in memory) and the socket to listen on. */
export const dynaliteThreadDataSchema = z.object({ path: z.string().optional(), socketPath: z.string() });
export type DynaliteThreadData = z.infer<typeof dynaliteThreadDataSchema>;

/** What the thread says back. */
export const dynaliteThreadMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('listening') }),
  z.object({ type: z.literal('failed'), error: z.string() }),
  z.object({ type: z.literal('closed') }),
]);
