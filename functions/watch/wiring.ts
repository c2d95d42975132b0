import { WATCH_LOG_RETENTION_SECONDS, watchLogFromEnv } from '../../shared/adapters/aws/dynamodb/watch-log-table.js';
import { systemClock } from '../../shared/ports/clock.js';
import type { Logger } from '../../shared/ports/logger.js';
import { apiWiring } from '../api/wiring.js';
import type { WatchFunctionDeps } from './serve-watch.js';

/** A function URL response streams for at most the function's 15 minutes: watches end a minute before. */
export const WATCH_FUNCTION_MAX_WATCH_SECONDS = 840;

/** The watch function's dependencies (env: TABLE_NAME, WATCH_LOG_TABLE_NAME), built once per container. */
export function watchWiring(logger: Logger, env: NodeJS.ProcessEnv = process.env): Omit<WatchFunctionDeps, 'authenticate'> {
  const watchLog = watchLogFromEnv(env);
  if (!watchLog) throw new Error('the watch function needs WATCH_LOG_TABLE_NAME');
  return {
    ...apiWiring(logger),
    watchLog,
    clock: systemClock,
    pollIntervalMs: 500,
    retentionSeconds: WATCH_LOG_RETENTION_SECONDS,
    limits: { maxTimeoutSeconds: WATCH_FUNCTION_MAX_WATCH_SECONDS },
  };
}
