import { z } from 'zod';
import { envelope } from '../common/envelope.js';
import { CONFIG_KEY } from './secret.js';

const dataKey = z.string().min(1).max(253).regex(CONFIG_KEY);

export const configMapSchema = z.strictObject({
  ...envelope,
  data: z.record(dataKey, z.string()).optional(),
  binaryData: z.record(dataKey, z.string()).optional(),
  immutable: z.boolean().optional(),
});

export type ConfigMap = z.infer<typeof configMapSchema>;
