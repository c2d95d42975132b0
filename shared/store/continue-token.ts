/** Opaque list continuation tokens: base64url JSON of the last key a page examined. */

import { isRecord, type JsonRecord } from '../contracts/json.js';
import { BadRequestError } from '../errors/index.js';

export function encodeContinueToken(lastKey: JsonRecord): string {
  return Buffer.from(JSON.stringify(lastKey), 'utf8').toString('base64url');
}

/** Throws BadRequestError when the token was not produced by encodeContinueToken. */
export function decodeContinueToken(token: string): JsonRecord {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch (error) {
    throw new BadRequestError('invalid continue token', { cause: error });
  }
  if (!isRecord(parsed)) throw new BadRequestError('invalid continue token');
  return parsed;
}
