import { BadRequestError, TooLargeError } from '../../../shared/errors/index.js';
import { MAX_BODY_BYTES } from '../http.js';

/**
 * The largest object a patch may produce (bytes of JSON). Stored objects must fit DynamoDB's
 * 400 KB anyway; this bounds the work before admission gets to say so.
 */
export const MAX_PATCHED_OBJECT_BYTES = 2 * MAX_BODY_BYTES;

/** How long one patch may compute before it is refused. */
export const MAX_PATCH_MILLISECONDS = 1_000;

/** Work accounting for one patch: bytes the operations add by copying, and time. */
export interface PatchBudget {
  /** Counts a value about to be copied; throws once the result could pass the byte limit. */
  grow(value: unknown): void;
  /** Throws once the patch has run past the time limit. */
  checkTime(operation: number, operations: number): void;
}

export function startPatchBudget(document: unknown, now: () => number = Date.now): PatchBudget {
  let bytes = jsonBytes(document);
  const started = now();
  const refuse = (): never => {
    throw new TooLargeError(`the patched object would be larger than ${MAX_PATCHED_OBJECT_BYTES} bytes`);
  };
  if (bytes > MAX_PATCHED_OBJECT_BYTES) refuse();
  return {
    grow(value) {
      bytes += jsonBytes(value);
      if (bytes > MAX_PATCHED_OBJECT_BYTES) refuse();
    },
    checkTime(operation, operations) {
      if (now() - started > MAX_PATCH_MILLISECONDS) {
        throw new BadRequestError(`the patch was stopped after ${operation} of ${operations} operations: it ran longer than ${MAX_PATCH_MILLISECONDS} ms`);
      }
    },
  };
}

/** Size of a value as JSON text (an upper bound of its UTF-8 size is not needed: the limit is generous). */
export function jsonBytes(value: unknown): number {
  return value === undefined ? 0 : (JSON.stringify(value)?.length ?? 0);
}
