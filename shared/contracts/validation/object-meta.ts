/**
 * ObjectMeta rules of the Kubernetes API server, worded as it words them: apimachinery
 * `util/validation` (IsQualifiedName, IsValidLabelValue, IsDNS1123Subdomain),
 * `apis/meta/v1/validation.ValidateLabels` and `api/validation` (ValidateAnnotations,
 * ValidateFinalizers, ValidateOwnerReferences, the generateName check of ValidateObjectMetaAccessor).
 * The errors carry the field passed in (`metadata.labels`, not one path per key, as Kubernetes).
 */

import { type FieldError, invalid, tooLongBytes } from './field-error.js';

const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const QUALIFIED_NAME_MAX_LENGTH = 63;
const QUALIFIED_NAME_ERR_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const LABEL_VALUE_MAX_LENGTH = 63;
const LABEL_VALUE_ERR_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
const DNS1123_SUBDOMAIN_ERR_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

/** 256 KiB: the total size of all annotation keys and values (`TotalAnnotationSizeLimitB`). */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

const FINALIZER_ORPHAN_DEPENDENTS = 'orphan';
const FINALIZER_DELETE_DEPENDENTS = 'foregroundDeletion';

/** Go's `len(s)`: UTF-8 bytes. */
const byteLength = (value: string): number => Buffer.byteLength(value, 'utf8');

const maxLenError = (length: number): string => `must be no more than ${length} characters`;

/** apimachinery `RegexError`, separators included. */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  const list = examples.map((example, i) => `${i > 0 ? ' or ' : ''}'${example}', `).join('');
  return `${msg} (e.g. ${list}regex used for validation is '${fmt}')`;
}

/** `IsDNS1123Subdomain`: the messages, empty when valid. */
export function dns1123SubdomainErrors(value: string): string[] {
  const errors: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errors.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!DNS1123_SUBDOMAIN.test(value)) errors.push(regexError(DNS1123_SUBDOMAIN_ERR_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errors;
}

/** `IsQualifiedName`: `[prefix/]name`, prefix a DNS-1123 subdomain, name at most 63 characters. */
export function qualifiedNameErrors(value: string): string[] {
  const errors: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = value;
  } else if (parts.length === 2) {
    const [prefix = '', rest = ''] = parts;
    name = rest;
    if (prefix.length === 0) errors.push('prefix part must be non-empty');
    else errors.push(...dns1123SubdomainErrors(prefix).map((msg) => `prefix part ${msg}`));
  } else {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_ERR_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errors.push('name part must be non-empty');
  else if (byteLength(name) > QUALIFIED_NAME_MAX_LENGTH) errors.push(`name part ${maxLenError(QUALIFIED_NAME_MAX_LENGTH)}`);
  if (!QUALIFIED_NAME.test(name)) {
    errors.push(`name part ${regexError(QUALIFIED_NAME_ERR_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  }
  return errors;
}

/** `IsValidLabelValue`: empty, or at most 63 characters of the qualified-name alphabet. */
export function labelValueErrors(value: string): string[] {
  const errors: string[] = [];
  if (byteLength(value) > LABEL_VALUE_MAX_LENGTH) errors.push(maxLenError(LABEL_VALUE_MAX_LENGTH));
  if (!LABEL_VALUE.test(value)) errors.push(regexError(LABEL_VALUE_ERR_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errors;
}

/** `ValidateLabels`: each key a qualified name, each value a label value; errors name `field`. */
export function validateLabels(labels: Readonly<Record<string, string>> | undefined, field: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(labels ?? {})) {
    for (const msg of qualifiedNameErrors(key)) errors.push(invalid(field, key, msg));
    for (const msg of labelValueErrors(value)) errors.push(invalid(field, value, msg));
  }
  return errors;
}

/** `ValidateAnnotations`: keys are qualified names up to case; keys and values total at most 256 KiB. */
export function validateAnnotations(annotations: Readonly<Record<string, string>> | undefined, field: string): FieldError[] {
  const errors: FieldError[] = [];
  let total = 0;
  for (const [key, value] of Object.entries(annotations ?? {})) {
    for (const msg of qualifiedNameErrors(key.toLowerCase())) errors.push(invalid(field, key, msg));
    total += byteLength(key) + byteLength(value);
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) errors.push(tooLongBytes(field, TOTAL_ANNOTATION_SIZE_LIMIT));
  return errors;
}

/** `ValidateFinalizers`: each a qualified name; `orphan` and `foregroundDeletion` exclude each other. */
export function validateFinalizers(finalizers: readonly string[] | undefined, field: string): FieldError[] {
  const list = finalizers ?? [];
  const errors = list.flatMap((finalizer) => qualifiedNameErrors(finalizer).map((msg) => invalid(field, finalizer, msg)));
  if (list.includes(FINALIZER_ORPHAN_DEPENDENTS) && list.includes(FINALIZER_DELETE_DEPENDENTS)) {
    errors.push(
      invalid(field, list, `finalizer ${FINALIZER_ORPHAN_DEPENDENTS} and ${FINALIZER_DELETE_DEPENDENTS} cannot be both set`),
    );
  }
  return errors;
}

/**
 * `ValidateOwnerReferences`' list rule: at most one reference is the controller. (The per-reference
 * rules are in the schema: ../schemas/common/metadata.ts.)
 */
export function validateOwnerReferences(
  references: readonly { kind: string; name: string; controller?: boolean }[] | undefined,
  field: string,
): FieldError[] {
  const controllers = (references ?? []).filter((ref) => ref.controller === true).map((ref) => `${ref.kind}/${ref.name}`);
  const [first, ...others] = controllers;
  return others.map((other) =>
    invalid(field, references, `Only one reference can have Controller set to true. Found "true" in references for ${first} and ${other}`),
  );
}

/** `maskTrailingDash`: a generateName may end in `-` (the random suffix follows). */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

/** `NameIsDNSSubdomain(generateName, prefix=true)`; an empty generateName is not checked. */
export function validateGenerateName(generateName: string | undefined, field: string): FieldError[] {
  if (!generateName) return [];
  return dns1123SubdomainErrors(maskTrailingDash(generateName)).map((msg) => invalid(field, generateName, msg));
}
