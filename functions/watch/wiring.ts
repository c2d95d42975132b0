import { z } from 'zod';
import { WATCH_LOG_RETENTION_SECONDS, watchLogFromEnv } from '../../shared/adapters/aws/dynamodb/watch-log-table.js';
import { JoseTokenVerifier } from '../../shared/adapters/oidc/jose-token-verifier.js';
import { systemClock } from '../../shared/ports/clock.js';
import type { Logger } from '../../shared/ports/logger.js';
import { apiWiring } from '../api/wiring.js';
import type { WatchFunctionDeps } from './serve-watch.js';
import { iamWatchAuthentication, jwtWatchAuthentication, WATCH_JWT_ENV, type WatchAuthentication } from './watch-authentication.js';

/** A function URL response streams for at most the function's 15 minutes: watches end a minute before. */
export const WATCH_FUNCTION_MAX_WATCH_SECONDS = 840;

/**
 * Between bytes of a watch response when nothing happens: a blank line, well inside CloudFront's
 * origin response timeout (30 s by default), which also applies between the packets of a response
 * (ADR 0125). Watch clients skip whitespace between events.
 */
export const WATCH_FUNCTION_HEARTBEAT_MS = 10_000;

const AUDIENCE = z.array(z.string().min(1)).min(1);

export interface WatchWiring {
  deps: Omit<WatchFunctionDeps, 'authenticate'>;
  authentication: WatchAuthentication;
}

/** How the watch function authenticates (env JWT_ISSUER, JWT_AUDIENCE): JWT mode when an issuer is set, else IAM. */
export function watchAuthenticationFromEnv(env: NodeJS.ProcessEnv): WatchAuthentication {
  const issuer = env[WATCH_JWT_ENV.issuer];
  if (!issuer) return iamWatchAuthentication;
  const audience = AUDIENCE.parse(JSON.parse(env[WATCH_JWT_ENV.audience] ?? '[]'));
  return jwtWatchAuthentication(new JoseTokenVerifier({ issuer, audience }, systemClock));
}

/** The watch function's dependencies (env: TABLE_NAME, WATCH_LOG_TABLE_NAME, JWT_*), built once per container. */
export function watchWiring(logger: Logger, env: NodeJS.ProcessEnv = process.env): WatchWiring {
  const watchLog = watchLogFromEnv(env);
  if (!watchLog) throw new Error('the watch function needs WATCH_LOG_TABLE_NAME');
  return {
    deps: {
      ...apiWiring(logger),
      watchLog,
      clock: systemClock,
      pollIntervalMs: 500,
      heartbeatMs: WATCH_FUNCTION_HEARTBEAT_MS,
      retentionSeconds: WATCH_LOG_RETENTION_SECONDS,
      limits: { maxTimeoutSeconds: WATCH_FUNCTION_MAX_WATCH_SECONDS },
    },
    authentication: watchAuthenticationFromEnv(env),
  };
}
