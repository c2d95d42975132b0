import { afterEach, describe, expect, it, vi } from 'vitest';
import { lambdaTelemetry } from '../../../shared/adapters/aws/powertools/lambda-telemetry.js';

/** Lines Powertools wrote to stdout (JSON logs and EMF metric documents) while `run` ran. */
async function captured(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await run().catch(() => undefined);
  } finally {
    spy.mockRestore();
  }
  return lines.flatMap((text) => text.split('\n')).filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
}

const metricNames = (lines: Record<string, unknown>[]) =>
  lines.flatMap((line) => {
    const aws = line._aws;
    if (typeof aws !== 'object' || aws === null || !('CloudWatchMetrics' in aws) || !Array.isArray(aws.CloudWatchMetrics)) return [];
    return aws.CloudWatchMetrics.flatMap((m: { Metrics?: { Name: string }[] }) => (m.Metrics ?? []).map((x) => x.Name));
  });

describe('lambdaTelemetry', () => {
  afterEach(() => vi.restoreAllMocks());

  it('logs JSON with the service and child keys and publishes the measured metrics', async () => {
    const telemetry = lambdaTelemetry('capless-test');
    const handler = telemetry.instrument(
      async (event: { n: number }) => {
        telemetry.logger.child({ kind: 'Machine' }).info('handled', { n: event.n });
        return { failures: event.n };
      },
      (result) => ({ BatchItemFailures: result.failures }),
    );
    const lines = await captured(() => handler({ n: 2 }));
    const log = lines.find((line) => line.message === 'handled');
    expect(log).toMatchObject({ level: 'INFO', service: 'capless-test', kind: 'Machine', n: 2 });
    expect(metricNames(lines)).toContain('BatchItemFailures');
  });

  it('counts an invocation error, publishes it, and rethrows', async () => {
    const telemetry = lambdaTelemetry('capless-test');
    const handler = telemetry.instrument(async () => {
      throw new Error('boom');
    });
    await expect(handler(undefined)).rejects.toThrow('boom');
    const lines = await captured(() => handler(undefined));
    expect(metricNames(lines)).toContain('InvocationErrors');
  });
});
