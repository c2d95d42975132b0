/**
 * capless's in-memory infrastructure provider kinds (no cloud: a machine becomes "provisioned"
 * after a delay, optionally failing on purpose). Defined here, not upstream.
 */

import { z } from 'zod';
import { envelope, templateOf } from '../common/envelope.js';
import { int32 } from '../common/names.js';
import { contractRefSchema } from '../common/references.js';
import { baseStatusSchema } from '../common/status.js';
import { apiEndpointSchema, failureDomainSchema } from '../core/cluster.js';

export const inMemoryClusterSpecSchema = z.strictObject({
  controlPlaneEndpoint: apiEndpointSchema.optional(),
});

export const inMemoryClusterStatusSchema = baseStatusSchema.extend({
  initialization: z.looseObject({ provisioned: z.boolean().optional() }).optional(),
  failureDomains: z.array(failureDomainSchema).optional(),
});

export const inMemoryClusterSchema = z.strictObject({
  ...envelope,
  spec: inMemoryClusterSpecSchema.optional(),
  status: inMemoryClusterStatusSchema.optional(),
});

export const inMemoryClusterTemplateSchema = z.strictObject({
  ...envelope,
  spec: templateOf(inMemoryClusterSpecSchema),
});

/** Failure injection: `NeverReady` never provisions, `Fail` reports a terminal failure. */
export const inMemoryFailureSchema = z.strictObject({
  mode: z.enum(['NeverReady', 'Fail']),
  message: z.string().max(1024).optional(),
});

export const inMemoryMachineSpecSchema = z.strictObject({
  providerID: z.string().max(512).optional(),
  /** Simulated provisioning delay; unset means the reconciler's default, 0 means at once. */
  startupSeconds: int32().min(0).max(86_400).optional(),
  failureDomain: z.string().max(256).optional(),
  failure: inMemoryFailureSchema.optional(),
  /** IPAM pools to take the machine's addresses from, one IPAddressClaim each (as CAPV's and Metal3's machines do). */
  addressesFromPools: z.array(contractRefSchema).max(16).optional(),
});

export const inMemoryMachineStatusSchema = baseStatusSchema.extend({
  initialization: z.looseObject({ provisioned: z.boolean().optional() }).optional(),
  addresses: z.array(z.looseObject({ type: z.string(), address: z.string() })).optional(),
  failureDomain: z.string().optional(),
  /** When provisioning started (RFC 3339), so the delay survives restarts. */
  provisioningStartedAt: z.string().optional(),
});

export const inMemoryMachineSchema = z.strictObject({
  ...envelope,
  spec: inMemoryMachineSpecSchema.optional(),
  status: inMemoryMachineStatusSchema.optional(),
});

export const inMemoryMachineTemplateSchema = z.strictObject({
  ...envelope,
  spec: templateOf(inMemoryMachineSpecSchema),
});

export type InMemoryCluster = z.infer<typeof inMemoryClusterSchema>;
export type InMemoryClusterSpec = z.infer<typeof inMemoryClusterSpecSchema>;
export type InMemoryClusterTemplate = z.infer<typeof inMemoryClusterTemplateSchema>;
export type InMemoryMachine = z.infer<typeof inMemoryMachineSchema>;
export type InMemoryMachineSpec = z.infer<typeof inMemoryMachineSpecSchema>;
export type InMemoryMachineFailure = z.infer<typeof inMemoryFailureSchema>;
export type InMemoryMachineTemplate = z.infer<typeof inMemoryMachineTemplateSchema>;
