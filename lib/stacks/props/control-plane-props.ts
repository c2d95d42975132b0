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
   * A CloudFront distribution in front of the API that also serves watches (`?watch=true`) from
   * the watch function, so kubectl's `server` and bearer token work for everything (ADR 0125).
   * JWT mode only: SigV4 signatures for the API's host do not survive CloudFront.
   * @default true with authMode 'jwt'; not allowed with 'iam'
   */
  readonly apiFrontDoor?: boolean;
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
   * The kinds that get a reconciler function and a dead-letter queue each (their requests share
   * one work queue, ADR 0110); per kind,
   * whether its reconciler may read and write Secrets.
   * @default RECONCILED_KINDS (Cluster API core, kubeadm bootstrap and control plane, in-memory infrastructure)
   */
  readonly reconciledKinds?: readonly ReconciledKind[];
  /**
   * Failed tries of one reconcile request before it goes to its kind's dead-letter queue
   * (1–1000); the reconciler records a condition on the object at the last one. Also the shared
   * work queue's redrive count for messages the dispatcher can never read.
   * @default 5
   */
  readonly maxReceiveCount?: number;
  /**
   * Each reconciler function's reserved concurrency (2–1000): the per-kind limit of ADR 0110. An
   * invocation over it is throttled and retried by Lambda for up to 6 hours, never dropped.
   * Reserved concurrency comes out of the account's pool, which must keep 100 unreserved: the
   * default reserves 5 × the number of kinds (100 for the 20 built-in kinds), so an account
   * whose concurrency limit is lower than that plus 100 needs a smaller value or a quota raise.
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
  readonly apiFrontDoor: boolean;
  readonly resyncPeriod: Duration;
  readonly logRetention: RetentionDays;
  readonly reconciledKinds: readonly ReconciledKind[];
  readonly maxReceiveCount: number;
  readonly reconcilerMaxConcurrency: number;
  readonly alarmTopic: ITopic | undefined;
}
