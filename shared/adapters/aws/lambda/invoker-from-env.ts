import { LambdaClient } from '@aws-sdk/client-lambda';
import { LambdaReconcilerInvoker, parseReconcilerFunctions } from './lambda-reconciler-invoker.js';

/**
 * The dispatcher's invoker from its environment: `functionsJson` maps `<group>/<Kind>` to the
 * reconciler function; the Lambda endpoint follows `AWS_ENDPOINT_URL_LAMBDA`, else
 * `AWS_ENDPOINT_URL` (an emulator), else AWS.
 */
export function reconcilerInvokerFromEnv(
  functionsJson: string | undefined,
  env: NodeJS.ProcessEnv,
): { invoker: LambdaReconcilerInvoker; functions: Record<string, string> } {
  const functions = parseReconcilerFunctions(functionsJson);
  const endpoint = env.AWS_ENDPOINT_URL_LAMBDA ?? env.AWS_ENDPOINT_URL;
  const lambda = new LambdaClient(endpoint ? { endpoint } : {});
  return { invoker: new LambdaReconcilerInvoker(lambda, functions), functions };
}
