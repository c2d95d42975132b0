/**
 * The short-circuit (C14 `machinehealthcheck_controller.go` isAllowedRemediation): remediation
 * stops when more targets are unhealthy than `remediation.triggerIf.unhealthyLessThanOrEqualTo`
 * (an absolute number or a percentage of the targets, default 100%) allows, or when the number of
 * unhealthy targets falls outside `unhealthyInRange` (`[min-max]`). Pure.
 */

export interface TriggerIf {
  unhealthyLessThanOrEqualTo?: number | string | undefined;
  unhealthyInRange?: string | undefined;
}

export type RemediationDecision =
  | { allowed: true; remediationsAllowed: number }
  | { allowed: false; remediationsAllowed: 0; message: string };

const RANGE = /^\[([0-9]+)-([0-9]+)\]$/;

export function parseUnhealthyRange(text: string): { min: number; max: number } | undefined {
  const match = RANGE.exec(text);
  if (!match) return undefined;
  const min = Number(match[1]);
  const max = Number(match[2]);
  return min <= max ? { min, max } : undefined;
}

function maxUnhealthy(value: number | string | undefined, total: number): number {
  if (value === undefined) return total;
  if (typeof value === 'number') return value;
  const n = Number(value.replace('%', ''));
  return value.endsWith('%') ? Math.floor((n * total) / 100) : n;
}

export function remediationAllowed(trigger: TriggerIf | undefined, total: number, unhealthy: number): RemediationDecision {
  const range = trigger?.unhealthyInRange !== undefined ? parseUnhealthyRange(trigger.unhealthyInRange) : undefined;
  if (trigger?.unhealthyInRange !== undefined) {
    if (!range) return { allowed: false, remediationsAllowed: 0, message: `unhealthyInRange ${trigger.unhealthyInRange} is not of the form [min-max]` };
    if (unhealthy < range.min || unhealthy > range.max) {
      return {
        allowed: false,
        remediationsAllowed: 0,
        message: `Remediation is not allowed, the number of not started or unhealthy machines does not fall within the range (total: ${total}, unhealthy: ${unhealthy}, unhealthyRange: ${trigger.unhealthyInRange})`,
      };
    }
    return { allowed: true, remediationsAllowed: range.max - unhealthy };
  }
  const limit = maxUnhealthy(trigger?.unhealthyLessThanOrEqualTo, total);
  if (unhealthy > limit) {
    return {
      allowed: false,
      remediationsAllowed: 0,
      message: `Remediation is not allowed, the number of not started or unhealthy machines exceeds maxUnhealthy (total: ${total}, unhealthy: ${unhealthy}, maxUnhealthy: ${trigger?.unhealthyLessThanOrEqualTo ?? '100%'})`,
    };
  }
  return { allowed: true, remediationsAllowed: limit - unhealthy };
}
