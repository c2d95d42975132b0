/**
 * Cluster API's health-check rules for one target (C14 `internal/controllers/machinehealthcheck/
 * machinehealthcheck_targets.go` needsRemediation), pure: a Machine is unhealthy when it carries
 * the remediate-machine annotation, when its Node went away, when a listed Machine or Node
 * condition has held longer than its timeout, or when no Node appeared within nodeStartupTimeout.
 * A healthy target says when the soonest timeout would expire, so the check runs again then.
 */

export interface ConditionFact {
  type: string;
  status: string;
  lastTransitionTime?: string | undefined;
}

export interface UnhealthyRule {
  type: string;
  status: string;
  timeoutSeconds: number;
}

export interface HealthChecks {
  /** 0 disables the startup check. */
  nodeStartupTimeoutSeconds: number;
  unhealthyNodeConditions: readonly UnhealthyRule[];
  unhealthyMachineConditions: readonly UnhealthyRule[];
}

export interface TargetFacts {
  /** The Machine carries `cluster.x-k8s.io/remediate-machine`. */
  remediateAnnotation: boolean;
  /** `status.nodeRef` is set: a Node was seen once. */
  hadNode: boolean;
  /** The Node now, when one is found. */
  node?: { conditions: readonly ConditionFact[] } | undefined;
  machineConditions: readonly ConditionFact[];
  /** When the wait for a Node started: the later of the Machine's creation and the Cluster's infrastructure/control plane readiness. */
  startedAt: string;
}

export type Verdict =
  | { healthy: true; nextCheckSeconds?: number }
  | { healthy: false; reason: 'HasRemediateAnnotation' | 'NodeDeleted' | 'UnhealthyMachine' | 'UnhealthyNode' | 'NodeStartupTimeout'; message: string };

/** The v1beta2 defaults (C14 webhook): 10 minutes for a Node to appear. */
export const DEFAULT_NODE_STARTUP_TIMEOUT_SECONDS = 600;

function secondsSince(time: string | undefined, now: Date): number {
  const at = time ? Date.parse(time) : Number.NaN;
  return Number.isNaN(at) ? 0 : (now.getTime() - at) / 1000;
}

type RuleOutcome = { tripped: ConditionFact & { rule: UnhealthyRule } } | { nextCheckSeconds?: number };

function checkRules(rules: readonly UnhealthyRule[], conditions: readonly ConditionFact[], now: Date): RuleOutcome {
  let nextCheckSeconds: number | undefined;
  for (const rule of rules) {
    const condition = conditions.find((c) => c.type === rule.type);
    if (!condition || condition.status !== rule.status) continue;
    const held = secondsSince(condition.lastTransitionTime, now);
    if (held > rule.timeoutSeconds) return { tripped: { ...condition, rule } };
    const remaining = Math.ceil(rule.timeoutSeconds - held) + 1;
    nextCheckSeconds = nextCheckSeconds === undefined ? remaining : Math.min(nextCheckSeconds, remaining);
  }
  return nextCheckSeconds === undefined ? {} : { nextCheckSeconds };
}

function soonest(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  return b === undefined ? a : Math.min(a, b);
}

export function evaluateTarget(target: TargetFacts, checks: HealthChecks, now: Date): Verdict {
  if (target.remediateAnnotation) return { healthy: false, reason: 'HasRemediateAnnotation', message: 'the Machine is marked for remediation by annotation' };
  if (target.hadNode && !target.node) return { healthy: false, reason: 'NodeDeleted', message: 'the Machine has a nodeRef but its Node is gone' };

  const machine = checkRules(checks.unhealthyMachineConditions, target.machineConditions, now);
  if ('tripped' in machine) {
    const { rule } = machine.tripped;
    return { healthy: false, reason: 'UnhealthyMachine', message: `Condition ${rule.type} on Machine is reporting status ${rule.status} for more than ${rule.timeoutSeconds}s` };
  }
  let next = machine.nextCheckSeconds;

  if (!target.node) {
    if (checks.nodeStartupTimeoutSeconds <= 0) return next === undefined ? { healthy: true } : { healthy: true, nextCheckSeconds: next };
    const waited = secondsSince(target.startedAt, now);
    if (waited > checks.nodeStartupTimeoutSeconds) {
      return { healthy: false, reason: 'NodeStartupTimeout', message: `Health check failed: Node failed to report startup in ${checks.nodeStartupTimeoutSeconds}s` };
    }
    next = soonest(next, Math.ceil(checks.nodeStartupTimeoutSeconds - waited) + 1);
    return { healthy: true, nextCheckSeconds: next };
  }

  const node = checkRules(checks.unhealthyNodeConditions, target.node.conditions, now);
  if ('tripped' in node) {
    const { rule } = node.tripped;
    return { healthy: false, reason: 'UnhealthyNode', message: `Condition ${rule.type} on Node is reporting status ${rule.status} for more than ${rule.timeoutSeconds}s` };
  }
  next = soonest(next, node.nextCheckSeconds);
  return next === undefined ? { healthy: true } : { healthy: true, nextCheckSeconds: next };
}
