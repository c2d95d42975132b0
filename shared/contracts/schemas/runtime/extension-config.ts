/** ExtensionConfig: the client config is modelled, the rest is accepted loosely. */

import { z } from 'zod';
import { envelope } from '../common/envelope.js';
import { int32 } from '../common/names.js';
import { labelSelectorSchema } from '../common/selector.js';
import { openRecord } from '../common/status.js';

export const extensionConfigSchema = z.strictObject({
  ...envelope,
  spec: z.looseObject({
    clientConfig: z.looseObject({
      url: z.string().max(512).optional(),
      service: z
        .looseObject({ name: z.string().min(1), namespace: z.string().min(1), path: z.string().optional(), port: int32().optional() })
        .optional(),
      /** `format: byte`: base64 of a PEM bundle (the reconciler checks the PEM). */
      caBundle: z
        .string()
        .min(1)
        .max(51200)
        .regex(/^[A-Za-z0-9+/]*={0,2}$/, { message: 'must be base64-encoded (format: byte)' })
        .optional(),
    }),
    namespaceSelector: labelSelectorSchema.optional(),
    settings: z.record(z.string(), z.string()).optional(),
  }),
  status: openRecord.optional(),
});

export type ExtensionConfig = z.infer<typeof extensionConfigSchema>;
