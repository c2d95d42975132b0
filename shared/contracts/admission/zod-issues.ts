/** Maps zod issues to Kubernetes field errors (reason, path, offending value). */

import type { z } from 'zod';
import { isRecord } from '../json.js';
import { type FieldError, fieldPath, forbidden, invalid, joinPath, notSupported, required, tooLong, tooMany } from '../validation/field-error.js';

type Issue = z.core.$ZodIssue;

function valueAtPath(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const segment of path) {
    if (Array.isArray(current) && typeof segment === 'number') current = current[segment];
    else if (isRecord(current) && typeof segment === 'string') current = current[segment];
    else return undefined;
  }
  return current;
}

/** A field error a schema check reported whole, at the issue's path (`withFieldErrors` in ../schemas/common/metadata.ts). */
function carriedFieldError(issue: Issue): FieldError | undefined {
  if (issue.code !== 'custom') return undefined;
  const carried: unknown = issue.params?.fieldError;
  return isRecord(carried) && typeof carried.reason === 'string' ? (carried as unknown as FieldError) : undefined;
}

function fromIssue(issue: Issue, input: unknown): FieldError[] {
  const field = fieldPath(issue.path);
  const carried = carriedFieldError(issue);
  if (carried) return [{ ...carried, field }];
  const value = valueAtPath(input, issue.path);
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => forbidden(joinPath(field, key), `unknown field "${joinPath(field, key)}"`));
    case 'invalid_type':
      if (value === undefined) return [required(field)];
      return [invalid(field, value, `must be of type ${issue.expected}`)];
    case 'invalid_value':
      return [notSupported(field, value, issue.values)];
    case 'too_big':
      if (issue.origin === 'string') return [tooLong(field, value, Number(issue.maximum))];
      if (issue.origin === 'array' && Array.isArray(value)) return [tooMany(field, value.length, Number(issue.maximum))];
      return [invalid(field, value, `${field} in body should be less than or equal to ${String(issue.maximum)}`)];
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1 && value === '') return [required(field)];
      return [invalid(field, value, `${field} in body ${tooSmall(issue.origin, String(issue.minimum))}`)];
    case 'invalid_format':
      if (issue.format === 'regex' && 'pattern' in issue && typeof issue.pattern === 'string') {
        // zod renders the expression as a literal (`/^…$/u`); the API server quotes the pattern itself.
        const pattern = /^\/(.*)\/[a-z]*$/s.exec(issue.pattern)?.[1] ?? issue.pattern;
        return [invalid(field, value, `${field} in body should match '${pattern}'`)];
      }
      return [invalid(field, value, issue.message)];
    case 'custom':
      // A structural-schema bound (minProperties …) worded as the API server's OpenAPI validation.
      return [invalid(field, value, issue.params?.inBody === true ? `${field} in body ${issue.message}` : issue.message)];
    default:
      return [invalid(field, value, issue.message)];
  }
}

/** The API server's OpenAPI wording of a lower bound. */
function tooSmall(origin: string, minimum: string): string {
  if (origin === 'string') return `should be at least ${minimum} chars long`;
  if (origin === 'array' || origin === 'set') return `should have at least ${minimum} items`;
  return `should be greater than or equal to ${minimum}`;
}

export function fieldErrorsFromZod(error: z.ZodError, input: unknown): FieldError[] {
  return error.issues.flatMap((issue) => fromIssue(issue, input));
}
