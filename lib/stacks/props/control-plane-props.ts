import type { Duration } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { ReconciledKind } from '../reconciled-kinds.js';

/** How callers of the management API authenticate: never anonymous. */
export type AuthMode = 'iam' | 'jwt';

export interface CaplessControlPlaneProps {
  /**
   * How the management API authenticates callers: `'iam'` (SigV4; callers need
   * `execute-api:Invoke`) or `'jwt'` (a bearer token from `jwtIssuer` for one of `jwtAudience`).
   * @default 'iam'
   */
  readonly authMode?: AuthMode;
  /**
   * The OIDC issuer URL (https) whose tokens the API accepts. Required with `authMode: 'jwt'`.
   * @default none: not allowed unless authMode is 'jwt'
   */
  readonly jwtIssuer?: string;
  /**
   * Accepted `aud` values of the tokens. Required (non-empty) with `authMode: 'jwt'`.
   * @default none: not allowed unless authMode is 'jwt'
   */
  readonly jwtAudience?: readonly string[];
  /**
   * How often every object is re-enqueued to catch drift (whole minutes, at least 1).
   * @default Duration.minutes(60) (ADR 0110)
   */
  readonly resyncPeriod?: Duration;
  /**
   * How long function logs and API access logs are kept.
   * @default RetentionDays.ONE_MONTH
   */
  readonly logRetention?: RetentionDays;
  /**
   * The kinds that get a queue, a dead-letter queue and a reconciler function each; per kind,
   * whether its reconciler may read and write Secrets.
   * @default RECONCILED_KINDS (Cluster API core, kubeadm bootstrap and control plane, in-memory infrastructure)
   */
  readonly reconciledKinds?: readonly ReconciledKind[];
  /**
   * Receives of one reconcile request before SQS moves it to the kind's dead-letter queue
   * (1–1000). The reconciler records a condition on the object at the last receive.
   * @default 5
   */
  readonly maxReceiveCount?: number;
  /**
   * Most concurrent invocations of each reconciler by its queue (2–1000).
   * @default 5
   */
  readonly reconcilerMaxConcurrency?: number;
  /**
   * Where alarms (dead letters, stuck queues, stream lag, function errors) notify.
   * @default alarms notify no one; they show on the dashboard
   */
  readonly alarmTopic?: ITopic;
}

/** Props after defaults; what the constructs build from. */
export interface ResolvedControlPlaneProps {
  readonly authMode: AuthMode;
  readonly jwtIssuer: string | undefined;
  readonly jwtAudience: readonly string[];
  readonly resyncPeriod: Duration;
  readonly logRetention: RetentionDays;
  readonly reconciledKinds: readonly ReconciledKind[];
  readonly maxReceiveCount: number;
  readonly reconcilerMaxConcurrency: number;
  readonly alarmTopic: ITopic | undefined;
}
