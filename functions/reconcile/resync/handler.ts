import { lambdaTelemetry } from '../../../shared/adapters/aws/powertools/lambda-telemetry.js';
import { resyncAll } from './resync-all.js';
import { resyncWiring } from './wiring.js';

const telemetry = lambdaTelemetry('capless-resync');
const deps = resyncWiring(process.env, telemetry.logger);

/** EventBridge schedule → every object of every reconciled kind enqueued once (coalesced). */
export const handler = telemetry.instrument(
  async (): Promise<{ enqueued: number }> => {
    const enqueued = await resyncAll(deps.store, deps.registry, deps.queue);
    deps.logger.info('resync done', { enqueued });
    return { enqueued };
  },
  (result) => ({ ResyncEnqueued: result.enqueued }),
);
