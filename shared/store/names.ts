/** Name rules of Kubernetes API machinery: DNS-1123 subdomains for names, labels for namespaces. */

import { InvalidError, type StatusCause } from '../errors/index.js';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const MAX_SUBDOMAIN_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;

/** Problems with a metadata.name (DNS-1123 subdomain); empty when it is valid. */
export function nameProblems(name: string): string[] {
  const problems: string[] = [];
  if (name.length === 0) return ['name is required'];
  if (name.length > MAX_SUBDOMAIN_LENGTH) problems.push(`must be no more than ${MAX_SUBDOMAIN_LENGTH} characters`);
  if (!DNS1123_SUBDOMAIN.test(name)) {
    problems.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
    );
  }
  return problems;
}

/** Problems with a namespace (DNS-1123 label); empty when it is valid. */
export function namespaceProblems(namespace: string): string[] {
  const problems: string[] = [];
  if (namespace.length > MAX_LABEL_LENGTH) problems.push(`must be no more than ${MAX_LABEL_LENGTH} characters`);
  if (!DNS1123_LABEL.test(namespace)) {
    problems.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
    );
  }
  return problems;
}

/** Throws InvalidError (causes on metadata.name / metadata.namespace) for a bad name or namespace. */
export function assertValidNames(kind: string, name: string, namespace: string): void {
  const causes: StatusCause[] = [
    ...nameProblems(name).map((message) => ({ field: 'metadata.name', reason: 'FieldValueInvalid', message })),
    ...namespaceProblems(namespace).map((message) => ({
      field: 'metadata.namespace',
      reason: 'FieldValueInvalid',
      message,
    })),
  ];
  if (causes.length === 0) return;
  const summary = causes.map((cause) => `${cause.field}: Invalid value: "${cause.field === 'metadata.name' ? name : namespace}": ${cause.message}`);
  throw new InvalidError(`${kind} "${name}" is invalid: ${summary.join(', ')}`, {
    causes,
    details: { kind, name },
  });
}
