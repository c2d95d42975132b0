/** `metav1.ObjectMeta` as clients send it; mirrors ObjectMeta in ../../object.ts. */

import { z } from 'zod';
import { dnsLabel, dnsSubdomain } from './names.js';

export const ownerReferenceSchema = z.looseObject({
  apiVersion: z.string().min(1),
  kind: z.string().min(1),
  name: z.string().min(1),
  uid: z.string().min(1),
  controller: z.boolean().optional(),
  blockOwnerDeletion: z.boolean().optional(),
});

/**
 * Tolerant about fields it does not model (generateName, managedFields …) so nothing a
 * client sends in metadata is lost; strict about the format of what it models.
 */
export const objectMetaSchema = z.looseObject({
  name: dnsSubdomain,
  namespace: dnsLabel.optional(),
  uid: z.string().optional(),
  resourceVersion: z.string().optional(),
  generation: z.int().optional(),
  creationTimestamp: z.string().optional(),
  deletionTimestamp: z.string().optional(),
  finalizers: z.array(z.string()).optional(),
  ownerReferences: z.array(ownerReferenceSchema).optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
});

/** Metadata of an embedded template (`spec.template.metadata`): labels and annotations only. */
export const templateMetaSchema = z.strictObject({
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
});

export type TemplateMeta = z.infer<typeof templateMetaSchema>;
