/** How failed reconciles are retried (client-go's ItemExponentialFailureRateLimiter). */
export interface RetryPolicy {
  /** Failures after which the request is dead-lettered (SQS: the queue's maxReceiveCount). */
  maxAttempts: number;
  /** Delay after the first failure. */
  baseDelaySeconds: number;
  /** Upper bound of any one delay. */
  maxDelaySeconds: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, baseDelaySeconds: 1, maxDelaySeconds: 300 };

/** Delay before the next try after `failures` failures (1 = first failure): base × 2^(failures−1), capped. */
export function backoffSeconds(policy: RetryPolicy, failures: number): number {
  const exponent = Math.max(0, failures - 1);
  return Math.min(policy.maxDelaySeconds, policy.baseDelaySeconds * 2 ** exponent);
}

/** True when this failure (1-based count) is the last one the policy allows. */
export function isFinalFailure(policy: RetryPolicy, failures: number): boolean {
  return failures >= policy.maxAttempts;
}
