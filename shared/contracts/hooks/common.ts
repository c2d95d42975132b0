/**
 * Fields every hook request and response shares (api/runtime/hooks/v1alpha1/common_types.go).
 *
 * Decoding follows Cluster API's decoder (encoding/json into Go structs): unknown fields are
 * dropped, an absent `message` is '' and an absent `retryAfterSeconds` is 0. capless is stricter
 * where Go's zero values would let a blocking hook through by accident: `status` must be
 * `Success` or `Failure` (Go would take '' or `Pending` for a success) and `retryAfterSeconds`
 * must be a non-negative int32.
 */

import { z } from 'zod';

export const RESPONSE_STATUSES = ['Success', 'Failure'] as const;
export type ResponseStatus = (typeof RESPONSE_STATUSES)[number];

export const FAILURE_POLICIES = ['Fail', 'Ignore'] as const;
export type FailurePolicy = (typeof FAILURE_POLICIES)[number];

/** `settings`: free-form string pairs (ExtensionConfig settings overlaid by the caller's). */
export const settingsSchema = z.record(z.string(), z.string());

/** `apiVersion` and `kind` of a request or response: optional on decode (Go ignores them), always sent. */
export const typeMeta = {
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
};

export const commonRequest = {
  ...typeMeta,
  settings: settingsSchema.optional(),
};

export const commonResponse = {
  ...typeMeta,
  status: z.enum(RESPONSE_STATUSES),
  message: z.string().default(''),
};

/** int32, 0 … 2147483647; 0 = do not block. */
export const retryAfterSecondsSchema = z.int32().min(0, { message: 'retryAfterSeconds must not be negative' }).default(0);

export const commonRetryResponse = {
  ...commonResponse,
  retryAfterSeconds: retryAfterSecondsSchema,
};

/**
 * The Cluster a lifecycle request carries: a v1beta2 Cluster without managedFields and status.
 * Kept whole (extensions read any field); only its metadata is checked.
 */
export const hookClusterSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: z.looseObject({
    name: z.string().min(1),
    namespace: z.string().optional(),
    labels: z.record(z.string(), z.string()).optional(),
    annotations: z.record(z.string(), z.string()).optional(),
  }),
  spec: z.looseObject({}).optional(),
});
export type HookCluster = z.infer<typeof hookClusterSchema>;

/** `{version}` of an upgrade step. */
export const upgradeStepSchema = z.object({ version: z.string() });
export type UpgradeStep = z.infer<typeof upgradeStepSchema>;
