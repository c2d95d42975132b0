import { Duration, Token } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { RECONCILED_KINDS } from '../reconciled-kinds.js';
import type { CaplessControlPlaneProps, ResolvedControlPlaneProps } from './control-plane-props.js';
import { DEFAULT_RESYNC_MINUTES } from './resync-default.js';

/** A prop combination the control plane refuses; the message names the value and the fix. */
export class ControlPlanePropsError extends Error {
  override readonly name = 'ControlPlanePropsError';
}

interface Rule {
  readonly broken: (props: ResolvedControlPlaneProps) => boolean;
  readonly message: (props: ResolvedControlPlaneProps) => string;
}

function isInteger(value: number, min: number, max: number): boolean {
  return Token.isUnresolved(value) || (Number.isInteger(value) && value >= min && value <= max);
}

function duplicateKindNames(props: ResolvedControlPlaneProps): string[] {
  const names = props.reconciledKinds.map((k) => k.kind);
  return names.filter((name, i) => names.indexOf(name) !== i);
}

const RULES: readonly Rule[] = [
  {
    broken: (p) => p.authMode !== 'iam' && p.authMode !== 'jwt',
    message: (p) => `authMode must be 'iam' or 'jwt', got '${p.authMode}'`,
  },
  {
    broken: (p) =>
      p.authMode === 'jwt' && !(p.jwtIssuer !== undefined && (Token.isUnresolved(p.jwtIssuer) || p.jwtIssuer.startsWith('https://'))),
    message: (p) => `authMode 'jwt' needs jwtIssuer, an https URL; got '${p.jwtIssuer ?? ''}'`,
  },
  {
    broken: (p) => p.authMode === 'jwt' && p.jwtAudience.length === 0,
    message: () => "authMode 'jwt' needs a non-empty jwtAudience (the accepted 'aud' values)",
  },
  {
    broken: (p) => p.authMode === 'iam' && (p.jwtIssuer !== undefined || p.jwtAudience.length > 0),
    message: () => "jwtIssuer and jwtAudience apply only to authMode 'jwt': set authMode: 'jwt' or drop them",
  },
  {
    broken: (p) => p.authMode === 'iam' && p.apiFrontDoor,
    message: () =>
      "apiFrontDoor needs authMode 'jwt': CloudFront sends the API its own Host, so SigV4 signatures made for the API's host fail there; IAM callers use ApiUrl and WatchUrl",
  },
  {
    broken: (p) => !isInteger(p.resyncPeriod.toSeconds() / 60, 1, 60 * 24 * 365),
    message: (p) => `resyncPeriod must be a whole number of minutes, at least 1; got ${p.resyncPeriod.toSeconds()} s`,
  },
  {
    broken: (p) => !isInteger(p.maxReceiveCount, 1, 1000),
    message: (p) => `maxReceiveCount must be an integer from 1 to 1000; got ${p.maxReceiveCount}`,
  },
  {
    broken: (p) => !isInteger(p.reconcilerMaxConcurrency, 2, 1000),
    message: (p) => `reconcilerMaxConcurrency must be an integer from 2 to 1000 (Lambda's limits); got ${p.reconcilerMaxConcurrency}`,
  },
  {
    broken: (p) => p.reconciledKinds.length === 0,
    message: () => 'reconciledKinds is empty: give at least one kind (see RECONCILED_KINDS)',
  },
  {
    broken: (p) => duplicateKindNames(p).length > 0,
    message: (p) => `reconciledKinds names a kind twice (${duplicateKindNames(p).join(', ')}): kind names key the queues and functions`,
  },
];

/** Fills in the defaults and checks the result; throws ControlPlanePropsError listing every broken rule. */
export function resolveControlPlaneProps(props: CaplessControlPlaneProps = {}): ResolvedControlPlaneProps {
  const resolved: ResolvedControlPlaneProps = {
    authMode: props.authMode ?? 'iam',
    jwtIssuer: props.jwtIssuer,
    jwtAudience: props.jwtAudience ?? [],
    apiFrontDoor: props.apiFrontDoor ?? props.authMode === 'jwt',
    resyncPeriod: props.resyncPeriod ?? Duration.minutes(DEFAULT_RESYNC_MINUTES),
    logRetention: props.logRetention ?? RetentionDays.ONE_MONTH,
    reconciledKinds: props.reconciledKinds ?? RECONCILED_KINDS,
    maxReceiveCount: props.maxReceiveCount ?? 5,
    reconcilerMaxConcurrency: props.reconcilerMaxConcurrency ?? 5,
    alarmTopic: props.alarmTopic,
  };
  const problems = RULES.filter((rule) => rule.broken(resolved)).map((rule) => rule.message(resolved));
  if (problems.length > 0) throw new ControlPlanePropsError(`invalid capless control plane props: ${problems.join('; ')}`);
  return resolved;
}
