import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';
import type { Context } from 'aws-lambda';
import type { LogFields, Logger } from '../../../ports/logger.js';

/**
 * Logging, metrics and tracing of a capless Lambda function through Powertools for AWS Lambda:
 * JSON logs with the invocation context, EMF metrics published after every invocation, and an
 * X-Ray subsegment per invocation when tracing is active. Service name and namespace come from
 * POWERTOOLS_SERVICE_NAME and POWERTOOLS_METRICS_NAMESPACE (set by the stack).
 */
export interface LambdaTelemetry {
  logger: Logger;
  metrics: Metrics;
  tracer: Tracer;
  /** Wraps a handler: context in logs, one subsegment, metrics flushed even when it throws. */
  instrument<E, R>(handler: (event: E) => Promise<R>, measure?: (result: R) => Record<string, number>): (event: E, context?: Context) => Promise<R>;
}

export function lambdaTelemetry(serviceName: string): LambdaTelemetry {
  const powertools = new PowertoolsLogger({ serviceName });
  const metrics = new Metrics({ serviceName, namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'capless' });
  const tracer = new Tracer({ serviceName });
  const logger = portLogger(powertools);
  return {
    logger,
    metrics,
    tracer,
    instrument: (handler, measure) => async (event, context) => {
      if (context) powertools.addContext(context);
      return traced(tracer, serviceName, async () => {
        try {
          const result = await handler(event);
          for (const [name, value] of Object.entries(measure?.(result) ?? {})) metrics.addMetric(name, MetricUnit.Count, value);
          return result;
        } catch (error) {
          metrics.addMetric('InvocationErrors', MetricUnit.Count, 1);
          throw error;
        } finally {
          metrics.publishStoredMetrics();
        }
      });
    },
  };
}

/** Runs `work` in an X-Ray subsegment when tracing is active (what Powertools' middleware does). */
async function traced<R>(tracer: Tracer, name: string, work: () => Promise<R>): Promise<R> {
  const parent = tracer.isTracingEnabled() ? tracer.getSegment() : undefined;
  const segment = parent?.addNewSubsegment(`## ${name}`);
  if (!parent || !segment) return work();
  tracer.setSegment(segment);
  try {
    return await work();
  } catch (error) {
    segment.addError(error instanceof Error ? error : new Error(String(error)));
    throw error;
  } finally {
    segment.close();
    tracer.setSegment(parent);
  }
}

/** The Logger port on a Powertools logger (child loggers keep their keys). */
function portLogger(powertools: PowertoolsLogger): Logger {
  const fields = (extra?: LogFields) => extra ?? {};
  return {
    debug: (message, extra) => powertools.debug(message, fields(extra)),
    info: (message, extra) => powertools.info(message, fields(extra)),
    warn: (message, extra) => powertools.warn(message, fields(extra)),
    error: (message, extra) => powertools.error(message, fields(extra)),
    child: (extra) => {
      const child = powertools.createChild();
      child.appendPersistentKeys(extra);
      return portLogger(child);
    },
  };
}
