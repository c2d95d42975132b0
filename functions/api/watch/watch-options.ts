import { BadRequestError, InvalidError } from '../../../shared/errors/index.js';

/** The watch parameters of a list request, as the Kubernetes API defines them. */
export interface WatchOptions {
  /** '' (unset) and '0' start at the current state; anything else resumes after that version. */
  resourceVersion: string;
  allowWatchBookmarks: boolean;
  /** Seconds until the server ends the watch (capped by the server's own limit). */
  timeoutSeconds?: number;
  /** Undefined when the client did not say (legacy behaviour: initial events only without a resourceVersion). */
  sendInitialEvents?: boolean;
}

const TRUE = new Set(['true', '1']);
const FALSE = new Set(['false', '0', '']);

/** True when the request asks for a watch (`watch=true` or `watch=1`). */
export function isWatch(query: URLSearchParams): boolean {
  // Every value is checked: `watch=true&watch=maybe` is as malformed as `watch=maybe`.
  return query.getAll('watch').map((value) => booleanParam('watch', value)).includes(true);
}

export function parseWatchOptions(query: URLSearchParams): WatchOptions {
  const resourceVersion = query.get('resourceVersion') ?? '';
  const match = query.get('resourceVersionMatch');
  const sendInitial = query.get('sendInitialEvents');
  const options: WatchOptions = { resourceVersion, allowWatchBookmarks: booleanParam('allowWatchBookmarks', query.get('allowWatchBookmarks') ?? '') };
  const timeout = query.get('timeoutSeconds');
  if (timeout !== null && timeout !== '') options.timeoutSeconds = seconds(timeout);
  if (sendInitial !== null) {
    options.sendInitialEvents = booleanParam('sendInitialEvents', sendInitial);
    if (match !== 'NotOlderThan') {
      throw invalid('resourceVersionMatch', 'sendInitialEvents requires resourceVersionMatch=NotOlderThan');
    }
    if (options.sendInitialEvents && !options.allowWatchBookmarks) {
      throw invalid('allowWatchBookmarks', 'sendInitialEvents=true requires allowWatchBookmarks=true');
    }
  } else if (match !== null && match !== '') {
    throw invalid('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided');
  }
  return options;
}

function booleanParam(name: string, value: string): boolean {
  if (TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  throw new BadRequestError(`${name}: invalid value ${JSON.stringify(value.slice(0, 64))}: must be true or false`, {
    causes: [{ field: name, reason: 'FieldValueInvalid', message: 'must be true or false' }],
  });
}

function seconds(value: string): number {
  if (!/^[0-9]{1,9}$/.test(value)) {
    throw new BadRequestError(`timeoutSeconds: invalid value ${JSON.stringify(value.slice(0, 64))}: must be a non-negative integer`, {
      causes: [{ field: 'timeoutSeconds', reason: 'FieldValueInvalid', message: 'must be a non-negative integer' }],
    });
  }
  return Number(value);
}

function invalid(field: string, message: string): InvalidError {
  return new InvalidError(`${field}: Invalid value: ${message}`, { causes: [{ field, reason: 'FieldValueInvalid', message }] });
}
