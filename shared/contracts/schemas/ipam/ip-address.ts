import { z } from 'zod';
import { envelope } from '../common/envelope.js';
import { int32 } from '../common/names.js';
import { contractRefSchema, localRefSchema } from '../common/references.js';
import { baseStatusSchema } from '../common/status.js';

export const ipAddressClaimSchema = z.strictObject({
  ...envelope,
  spec: z.strictObject({
    clusterName: z.string().min(1).max(63).optional(),
    poolRef: contractRefSchema,
  }),
  status: baseStatusSchema.extend({ addressRef: localRefSchema.optional() }).optional(),
});

export const ipAddressSchema = z.strictObject({
  ...envelope,
  spec: z.strictObject({
    claimRef: localRefSchema,
    poolRef: contractRefSchema,
    address: z.string().min(1).max(39),
    prefix: int32().min(0).max(128),
    gateway: z.string().min(1).max(39).optional(),
  }),
});

export type IPAddressClaim = z.infer<typeof ipAddressClaimSchema>;
export type IPAddress = z.infer<typeof ipAddressSchema>;
