/**
 * ELBv2 failures as CloudApiErrors with the service's code (`LoadBalancerNotFound`, `Throttling`,
 * `ResourceInUse`, …; `throttled` covers ELBv2's `Throttling`). Some codes mean the desired state
 * already holds, e.g. deleting a target group that is gone: `absentOn` turns those into `undefined`.
 */

import { isCloudApiError } from '../../../errors/index.js';
import { sdkCall } from '../ec2/sdk-errors.js';

export const LOAD_BALANCER_NOT_FOUND = 'LoadBalancerNotFound';
export const TARGET_GROUP_NOT_FOUND = 'TargetGroupNotFound';
export const LISTENER_NOT_FOUND = 'ListenerNotFound';
export const INVALID_TARGET = 'InvalidTarget';

/** Some SDK versions report the exception's name (`…Exception`) where the wire code has none. */
function codeMatches(code: string, expected: readonly string[]): boolean {
  return expected.some((c) => code === c || code === `${c}Exception`);
}

/** The call's result, or undefined when it failed with one of `codes` (the thing is not there). */
export async function absentOn<T>(operation: string, codes: readonly string[], call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await sdkCall(operation, call);
  } catch (error) {
    if (isCloudApiError(error) && codeMatches(error.code, codes)) return undefined;
    throw error;
  }
}

export { sdkCall as elbCall };
