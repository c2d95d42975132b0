/**
 * First look at a request body: is it an object, is its apiVersion well formed, and is it of a
 * kind and version capless serves? Runs for every kind and every write.
 */

import { InvalidError, NotFoundError } from '../../errors/index.js';
import type { KindInfo, KindRegistry } from '../kinds.js';
import { isRecord, type JsonRecord } from '../json.js';
import { groupOf, versionOf } from '../object.js';
import { errorBody, invalid, renderFieldError } from '../validation/field-error.js';
import { apiVersionFormatError } from '../validation/api-version.js';

export interface Envelope {
  body: JsonRecord;
  info: KindInfo;
  group: string;
  version: string;
  name: string;
}

function nameOf(body: JsonRecord): string {
  const metadata = body.metadata;
  return isRecord(metadata) && typeof metadata.name === 'string' ? metadata.name : '';
}

export function readEnvelope(input: unknown, kinds: KindRegistry): Envelope {
  if (!isRecord(input)) {
    throw new InvalidError('Object is invalid: the body must be a JSON object', {
      causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: the body must be a JSON object' }],
    });
  }
  const { apiVersion, kind } = input;
  const missing = [
    ...(typeof apiVersion === 'string' && apiVersion !== '' ? [] : ['apiVersion']),
    ...(typeof kind === 'string' && kind !== '' ? [] : ['kind']),
  ];
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || missing.length > 0) {
    throw new InvalidError(`Object is invalid: ${missing.map((field) => `${field}: Required value`).join(', ')}`, {
      causes: missing.map((field) => ({ field, reason: 'FieldValueRequired', message: 'Required value' })),
    });
  }
  const formatError = apiVersionFormatError(apiVersion);
  if (formatError !== undefined) {
    const error = invalid('apiVersion', apiVersion, formatError);
    throw new InvalidError(`Object is invalid: ${renderFieldError(error)}`, {
      causes: [{ field: error.field, reason: error.reason, message: errorBody(error) }],
      details: { kind },
    });
  }
  const group = groupOf(apiVersion);
  const version = versionOf(apiVersion);
  const info = kinds.get(group, kind);
  if (!info) {
    throw new NotFoundError(`the server could not find the requested resource: no kind "${kind}" is served in group "${group}"`, {
      causes: [{ field: 'kind', reason: 'FieldValueNotSupported', message: `Unsupported value: "${kind}"` }],
      details: { group, kind },
    });
  }
  if (!info.versions.includes(version)) {
    throw new NotFoundError(
      `the server could not find the requested resource: ${kind}.${group} is not served in version "${version}" (served: ${info.versions.join(', ')})`,
      {
        causes: [{ field: 'apiVersion', reason: 'FieldValueNotSupported', message: `Unsupported value: "${apiVersion}"` }],
        details: { group, kind },
      },
    );
  }
  return { body: input, info, group, version, name: nameOf(input) };
}
