/** `metav1.ObjectMeta` as clients send it; mirrors ObjectMeta in ../../object.ts. */

import { z } from 'zod';
import { apiVersionFormatError } from '../../validation/api-version.js';
import { type FieldError, invalid } from '../../validation/field-error.js';
import {
  validateAnnotations,
  validateFinalizers,
  validateGenerateName,
  validateLabels,
  validateOwnerReferences,
} from '../../validation/object-meta.js';
import { dnsLabel, dnsSubdomain } from './names.js';

/**
 * Runs a Kubernetes-style validator on a parsed value. Its field errors (reported at the value's
 * path) become zod issues carrying the error in `params.fieldError`, which admission turns back
 * into the very same field error (../../admission/zod-issues.ts).
 */
export function withFieldErrors<T extends z.ZodType>(schema: T, validate: (value: z.output<T>) => FieldError[]): T {
  return schema.superRefine((value, ctx) => {
    for (const error of validate(value)) {
      ctx.addIssue({ code: 'custom', message: error.detail ?? error.reason, params: { fieldError: error } });
    }
  }) as T;
}

const stringMap = () => z.record(z.string(), z.string());

/** `metadata.labels`: qualified-name keys, label values (apimachinery ValidateLabels). */
export const labelsSchema = withFieldErrors(stringMap(), (labels) => validateLabels(labels, ''));

/** `metadata.annotations`: qualified-name keys (any case), 256 KiB in all (ValidateAnnotations). */
export const annotationsSchema = withFieldErrors(stringMap(), (annotations) => validateAnnotations(annotations, ''));

/** `metadata.finalizers`: qualified names (ValidateFinalizers). */
export const finalizersSchema = withFieldErrors(z.array(z.string()), (finalizers) => validateFinalizers(finalizers, ''));

/**
 * An owner reference (apimachinery validateOwnerReference: apiVersion, kind, name, uid non-empty).
 * capless also wants a well-formed apiVersion and a DNS-1123 subdomain name: every kind it serves
 * is named so, and an owner must be one of them.
 */
export const ownerReferenceSchema = z.looseObject({
  apiVersion: withFieldErrors(z.string().min(1), (apiVersion) => {
    const error = apiVersionFormatError(apiVersion);
    return error === undefined ? [] : [invalid('', apiVersion, error)];
  }),
  kind: z.string().min(1),
  name: dnsSubdomain,
  uid: z.string().min(1),
  controller: z.boolean().optional(),
  blockOwnerDeletion: z.boolean().optional(),
});

/** `metadata.ownerReferences`: at most one controller. */
export const ownerReferencesSchema = withFieldErrors(z.array(ownerReferenceSchema), (references) =>
  validateOwnerReferences(references, ''),
);

/**
 * Tolerant about fields it does not model (managedFields …) so nothing a client sends in
 * metadata is lost; strict about the format of what it models. Every kind's schema spreads it
 * (common/envelope.ts), so these rules hold for all kinds, on create and update alike.
 */
export const objectMetaSchema = z.looseObject({
  name: dnsSubdomain,
  generateName: withFieldErrors(z.string(), (generateName) => validateGenerateName(generateName, '')).optional(),
  namespace: dnsLabel.optional(),
  uid: z.string().optional(),
  resourceVersion: z.string().optional(),
  generation: z.int().optional(),
  creationTimestamp: z.string().optional(),
  deletionTimestamp: z.string().optional(),
  finalizers: finalizersSchema.optional(),
  ownerReferences: ownerReferencesSchema.optional(),
  labels: labelsSchema.optional(),
  annotations: annotationsSchema.optional(),
});

/** Metadata of an embedded template (`spec.template.metadata`): labels and annotations only, same rules. */
export const templateMetaSchema = z.strictObject({
  labels: labelsSchema.optional(),
  annotations: annotationsSchema.optional(),
});

export type TemplateMeta = z.infer<typeof templateMetaSchema>;
