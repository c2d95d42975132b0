import { lambdaTelemetry } from '../../../shared/adapters/aws/powertools/lambda-telemetry.js';
import { resyncByCluster } from './resync-by-cluster.js';
import { resyncWiring } from './wiring.js';

const telemetry = lambdaTelemetry('capless-resync');
const deps = resyncWiring(process.env, telemetry.logger);

/** EventBridge schedule → one message per cluster with its objects' keys on the shared work queue (docs/adr/0110). */
export const handler = telemetry.instrument(
  async (): Promise<{ objects: number; messages: number }> => {
    const sent = await resyncByCluster(deps.store, deps.registry, (messages) => deps.queue.sendResync(messages));
    deps.logger.info('resync done', sent);
    return sent;
  },
  (result) => ({ ResyncObjects: result.objects, ResyncMessages: result.messages }),
);
