/** Lifecycle hook requests and responses (api/runtime/hooks/v1alpha1/lifecyclehooks_types.go). */

import { z } from 'zod';
import type { LifecycleHook } from './catalog.js';
import { commonRequest, commonResponse, commonRetryResponse, hookClusterSchema, upgradeStepSchema } from './common.js';

const clusterRequest = z.object({ ...commonRequest, cluster: hookClusterSchema });

const beforeUpgradeRequest = z.object({
  ...commonRequest,
  cluster: hookClusterSchema,
  fromKubernetesVersion: z.string(),
  toKubernetesVersion: z.string(),
  controlPlaneUpgrades: z.array(upgradeStepSchema).default([]),
  workersUpgrades: z.array(upgradeStepSchema).default([]),
});

const afterStepRequest = z.object({
  ...commonRequest,
  cluster: hookClusterSchema,
  kubernetesVersion: z.string(),
  controlPlaneUpgrades: z.array(upgradeStepSchema).default([]),
  workersUpgrades: z.array(upgradeStepSchema).default([]),
});

const afterClusterUpgradeRequest = z.object({ ...commonRequest, cluster: hookClusterSchema, kubernetesVersion: z.string() });

export const retryResponseSchema = z.object({ ...commonRetryResponse });
export const plainResponseSchema = z.object({ ...commonResponse });
export type RetryResponse = z.infer<typeof retryResponseSchema>;
export type PlainResponse = z.infer<typeof plainResponseSchema>;

export const LIFECYCLE_REQUEST_SCHEMAS = {
  BeforeClusterCreate: clusterRequest,
  AfterControlPlaneInitialized: clusterRequest,
  BeforeClusterUpgrade: beforeUpgradeRequest,
  BeforeControlPlaneUpgrade: beforeUpgradeRequest,
  AfterControlPlaneUpgrade: afterStepRequest,
  BeforeWorkersUpgrade: beforeUpgradeRequest,
  AfterWorkersUpgrade: afterStepRequest,
  AfterClusterUpgrade: afterClusterUpgradeRequest,
  BeforeClusterDelete: clusterRequest,
} as const satisfies Record<LifecycleHook, z.ZodType>;

export type LifecycleRequest<H extends LifecycleHook> = z.infer<(typeof LIFECYCLE_REQUEST_SCHEMAS)[H]>;
/** What a caller supplies for a lifecycle hook (apiVersion, kind and settings are added on the wire). */
export type LifecycleRequestBody<H extends LifecycleHook> = Omit<z.input<(typeof LIFECYCLE_REQUEST_SCHEMAS)[H]>, 'apiVersion' | 'kind' | 'settings'>;
export type LifecycleResponse<H extends LifecycleHook> = H extends 'AfterControlPlaneInitialized' ? PlainResponse : RetryResponse;
/** What a caller passes besides the Cluster (the hook client embeds the Cluster itself). */
export type LifecycleCallBody<H extends LifecycleHook> = Omit<LifecycleRequestBody<H>, 'cluster'>;
