/** Kubernetes name formats (apimachinery `validation.IsDNS1123Subdomain` and friends). */

import { z } from 'zod';

export const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** CRD pattern for `kind` in a contract-versioned reference. */
export const KIND_NAME = /^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$/;

export const dnsSubdomain = z
  .string()
  .max(253)
  .regex(DNS1123_SUBDOMAIN, {
    message:
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
  });

export const dnsLabel = z
  .string()
  .max(63)
  .regex(DNS1123_LABEL, {
    message:
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
  });

/**
 * An integer the CRDs declare `format: int32` (Go `int32`): -2147483648 … 2147483647. Every such
 * field uses this, so a value Cluster API could not decode is refused with the field's path.
 */
export const int32 = () => z.int32();

/** A Kubernetes int-or-string (`intstr.IntOrString`, whose int is an int32), e.g. `maxSurge: 1` or `'25%'`. */
export const intOrString = z.union([int32(), z.string().regex(/^\d+%?$/)]);
export type IntOrString = z.infer<typeof intOrString>;
