/**
 * The built-in example extension: an upgrade gate. BeforeClusterUpgrade is held (Success with
 * retryAfterSeconds) until either
 * - the Cluster carries `upgrade-gate.capless.dev/approved-version: <toKubernetesVersion>`
 *   (approval is per target version, so approving v1.34.0 does not wave through v1.35.0), or
 * - the request falls in the maintenance window from the ExtensionConfig setting
 *   `maintenanceWindow` (`HH:MM-HH:MM`, UTC, daily; may wrap midnight).
 * While held it asks to be called again at the window's start, or after `retryAfterSeconds`
 * (setting, default 60) when that is sooner or no window is set.
 */

import { ANNOTATION_UPGRADE_GATE_APPROVED_VERSION } from '../../../shared/contracts/object.js';
import { defineExtension, type HandlerAnswer } from '../define-extension.js';

const DEFAULT_RETRY_SECONDS = 60;
const WINDOW = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/;
const DAY_SECONDS = 24 * 60 * 60;

export interface MaintenanceWindow {
  /** Seconds after midnight UTC. */
  start: number;
  end: number;
}

export function parseMaintenanceWindow(text: string): MaintenanceWindow | undefined {
  const match = WINDOW.exec(text.trim());
  if (!match) return undefined;
  const [, sh, sm, eh, em] = match.map(Number);
  return { start: (sh ?? 0) * 3600 + (sm ?? 0) * 60, end: (eh ?? 0) * 3600 + (em ?? 0) * 60 };
}

/** 0 when `now` is inside the window, else the seconds until it opens. */
export function secondsUntilWindow(window: MaintenanceWindow, now: Date): number {
  const t = now.getUTCHours() * 3600 + now.getUTCMinutes() * 60 + now.getUTCSeconds();
  const inside = window.start <= window.end ? t >= window.start && t < window.end : t >= window.start || t < window.end;
  if (inside) return 0;
  return (window.start - t + DAY_SECONDS) % DAY_SECONDS;
}

export function upgradeGateDecision(input: {
  toVersion: string;
  annotations: Readonly<Record<string, string>> | undefined;
  settings: Readonly<Record<string, string>>;
  now: Date;
}): HandlerAnswer {
  const approved = input.annotations?.[ANNOTATION_UPGRADE_GATE_APPROVED_VERSION];
  if (approved === input.toVersion) return { message: `upgrade to ${input.toVersion} approved by annotation` };
  const configuredRetry = Number(input.settings.retryAfterSeconds);
  const retry = Number.isInteger(configuredRetry) && configuredRetry > 0 ? configuredRetry : DEFAULT_RETRY_SECONDS;
  const windowText = input.settings.maintenanceWindow;
  const window = windowText === undefined ? undefined : parseMaintenanceWindow(windowText);
  if (windowText !== undefined && window === undefined) {
    return { status: 'Failure', message: `setting maintenanceWindow ${JSON.stringify(windowText)} is not HH:MM-HH:MM (UTC)` };
  }
  const wait = window ? secondsUntilWindow(window, input.now) : undefined;
  if (wait === 0) return { message: `upgrade to ${input.toVersion} allowed in the maintenance window ${windowText} UTC` };
  const how = `annotate the Cluster with ${ANNOTATION_UPGRADE_GATE_APPROVED_VERSION}=${input.toVersion}${window ? ` or wait for the maintenance window ${windowText} UTC` : ''}`;
  return { retryAfterSeconds: wait === undefined ? retry : Math.min(retry, wait), message: `upgrade to ${input.toVersion} is waiting for approval: ${how}` };
}

export function upgradeGateExtension(options: { now?: () => Date } = {}) {
  return defineExtension({
    name: 'upgrade-gate',
    ...(options.now ? { now: options.now } : {}),
    handlers: {
      beforeClusterUpgrade: (request, context) =>
        upgradeGateDecision({ toVersion: request.toKubernetesVersion, annotations: request.cluster.metadata.annotations, settings: context.settings, now: context.now() }),
    },
  });
}
