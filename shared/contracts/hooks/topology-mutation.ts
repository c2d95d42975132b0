/** GeneratePatches, ValidateTopology and DiscoverVariables (api/runtime/hooks/v1alpha1/topologymutation_types.go). */

import { z } from 'zod';
import { commonRequest, commonResponse } from './common.js';

export const PATCH_TYPES = ['JSONPatch', 'JSONMergePatch'] as const;

const variableSchema = z.object({ name: z.string(), value: z.unknown() });

const holderReferenceSchema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  namespace: z.string().default(''),
  name: z.string(),
  fieldPath: z.string(),
});

const requestItem = {
  holderReference: holderReferenceSchema,
  object: z.unknown(),
  variables: z.array(variableSchema).default([]),
};

export const generatePatchesRequestSchema = z.object({
  ...commonRequest,
  variables: z.array(variableSchema).default([]),
  items: z.array(z.object({ uid: z.string(), ...requestItem })).default([]),
});

/** `patch` is []byte in Go: base64 of the JSON patch document on the wire. */
const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, { message: 'patch must be base64' });

export const generatePatchesResponseSchema = z.object({
  ...commonResponse,
  items: z.array(z.object({ uid: z.string(), patchType: z.enum(PATCH_TYPES), patch: base64 })).default([]),
});

export const validateTopologyRequestSchema = z.object({
  ...commonRequest,
  variables: z.array(variableSchema).default([]),
  items: z.array(z.object(requestItem)).default([]),
});

export const validateTopologyResponseSchema = z.object({ ...commonResponse });

export const discoverVariablesRequestSchema = z.object({ ...commonRequest });

export const discoverVariablesResponseSchema = z.object({
  ...commonResponse,
  variables: z.array(z.looseObject({ name: z.string(), required: z.boolean().default(false), schema: z.unknown() })).default([]),
});

export type GeneratePatchesRequest = z.infer<typeof generatePatchesRequestSchema>;
export type GeneratePatchesResponse = z.infer<typeof generatePatchesResponseSchema>;
export type ValidateTopologyRequest = z.infer<typeof validateTopologyRequestSchema>;
export type ValidateTopologyResponse = z.infer<typeof validateTopologyResponseSchema>;
export type DiscoverVariablesResponse = z.infer<typeof discoverVariablesResponseSchema>;
