import { watchLogFromEnv } from '../../../shared/adapters/aws/dynamodb/watch-log-table.js';
import type { Logger } from '../../../shared/ports/logger.js';
import { objectChangeFromStreamRecord } from '../../../shared/adapters/aws/dynamodb/stream-record.js';
import { awsWorkWiring } from '../aws-work-wiring.js';
import type { StreamBatchDeps } from './process-stream-batch.js';

/** The router's dependencies (env: TABLE_NAME, WORK_QUEUE_URL, WATCH_LOG_TABLE_NAME when watches are served). */
export function routerWiring(env: NodeJS.ProcessEnv = process.env, logger?: Logger): StreamBatchDeps {
  const { store, queue, registry, context } = awsWorkWiring('capless-router', env, logger);
  const watchLog = watchLogFromEnv(env);
  return { registry, lookup: store, queue, decode: objectChangeFromStreamRecord, logger: context.logger, ...(watchLog ? { watchLog } : {}) };
}
