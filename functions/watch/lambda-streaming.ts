import type { Writable } from 'node:stream';

/** The part of the Lambda Node.js runtime's global `awslambda` a streaming handler uses. */
export interface LambdaStreaming {
  streamifyResponse<E>(handler: (event: E, responseStream: Writable) => Promise<void>): unknown;
  HttpResponseStream: { from(stream: Writable, metadata: { statusCode: number; headers?: Record<string, string> }): Writable };
}

function isLambdaStreaming(value: unknown): value is LambdaStreaming {
  return typeof value === 'object' && value !== null && 'streamifyResponse' in value && 'HttpResponseStream' in value;
}

/** The runtime's `awslambda` (present only inside Lambda's Node.js runtime). */
export function lambdaStreaming(): LambdaStreaming {
  const runtime: unknown = Reflect.get(globalThis, 'awslambda');
  if (!isLambdaStreaming(runtime)) throw new Error('response streaming needs the Lambda Node.js runtime (globalThis.awslambda)');
  return runtime;
}
