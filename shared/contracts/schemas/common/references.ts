/** v1beta2 references (`ContractVersionedObjectReference`, capi-contract.md §1.0). */

import { z } from 'zod';
import { DNS1123_SUBDOMAIN, dnsSubdomain, KIND_NAME } from './names.js';

/** `{apiGroup, kind, name}`, all required; the target lives in the referrer's namespace. */
export const contractRefSchema = z.strictObject({
  apiGroup: z.string().min(1).max(253).regex(DNS1123_SUBDOMAIN),
  kind: z.string().min(1).max(63).regex(KIND_NAME),
  name: dnsSubdomain,
});
export type ContractRef = z.infer<typeof contractRefSchema>;

/** A same-namespace reference by name only (Machine `status.nodeRef`, IPAddress `claimRef`). */
export const localRefSchema = z.strictObject({ name: dnsSubdomain });
export type LocalRef = z.infer<typeof localRefSchema>;
