import { z } from 'zod';
import { envelope } from '../common/envelope.js';

/** Data keys: `[-._a-zA-Z0-9]+` (apimachinery `IsConfigMapKey`). */
export const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const dataKey = z.string().min(1).max(253).regex(CONFIG_KEY);

export const secretSchema = z.strictObject({
  ...envelope,
  type: z.string().max(253).optional(),
  data: z.record(dataKey, z.string().regex(BASE64, { message: 'must be base64 encoded' })).optional(),
  /** Write-only convenience: merged into `data` by admission and never stored. */
  stringData: z.record(dataKey, z.string()).optional(),
  immutable: z.boolean().optional(),
});

export type Secret = z.infer<typeof secretSchema>;
export const SECRET_TYPE_OPAQUE = 'Opaque';
