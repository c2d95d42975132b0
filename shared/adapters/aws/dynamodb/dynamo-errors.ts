/** Recognising DynamoDB service errors by name, without importing the exception classes everywhere. */

import { TooLargeError } from '../../../errors/index.js';
import { MAX_OBJECT_BYTES } from '../../../store/item-size.js';

export function isConditionalCheckFailed(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/** DynamoDB's own 400 KB rejection, for writes whose size the pre-check could only estimate. */
export function asItemTooLarge(error: unknown, what: string): TooLargeError | undefined {
  if (!(error instanceof Error) || error.name !== 'ValidationException' || !/item size/i.test(error.message)) return undefined;
  return new TooLargeError(`${what} is too large: DynamoDB rejected the item (${error.message}); the limit is ${MAX_OBJECT_BYTES} bytes`, {
    cause: error,
  });
}
