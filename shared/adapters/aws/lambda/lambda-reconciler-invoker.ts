import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { isRecord } from '../../../contracts/json.js';
import type { ReconcilerInvocation } from '../../../contracts/work-dispatch.js';
import type { ReconcilerInvoker } from '../../../ports/reconciler-invoker.js';

/** Lambda's answer to an accepted asynchronous invocation. */
const ACCEPTED = 202;

/**
 * ReconcilerInvoker on Lambda: `Invoke` with `InvocationType: Event` of the function that serves
 * the invocation's kind. Lambda answers 202 once the event is in its own queue; the function's
 * reserved concurrency then limits how many run at once (throttled events wait there, up to the
 * maximum event age), and its on-failure destination receives what ends in a function error.
 */
export class LambdaReconcilerInvoker implements ReconcilerInvoker {
  constructor(
    private readonly lambda: LambdaClient,
    /** Function name or ARN by `<group>/<Kind>`. */
    private readonly functions: Readonly<Record<string, string>>,
  ) {}

  async invoke(invocation: ReconcilerInvocation): Promise<void> {
    const functionName = this.functions[invocation.kind];
    if (!functionName) throw new Error(`no reconciler function for ${invocation.kind}: RECONCILER_FUNCTIONS has no "${invocation.kind}"`);
    const answer = await this.lambda.send(
      new InvokeCommand({ FunctionName: functionName, InvocationType: 'Event', Payload: new TextEncoder().encode(JSON.stringify(invocation)) }),
    );
    if (answer.StatusCode !== ACCEPTED) {
      throw new Error(`Lambda did not accept the ${invocation.kind} invocation (status ${answer.StatusCode ?? 'none'}${answer.FunctionError ? `, ${answer.FunctionError}` : ''})`);
    }
  }
}

/** Parses RECONCILER_FUNCTIONS (`{"<group>/<Kind>": "<function name or ARN>"}`); throws a clear error on anything else. */
export function parseReconcilerFunctions(json: string | undefined): Record<string, string> {
  if (!json) throw new Error('RECONCILER_FUNCTIONS is not set: expected {"<group>/<Kind>": "<function name or ARN>"}');
  const parsed: unknown = JSON.parse(json);
  if (!isRecord(parsed)) throw new Error('RECONCILER_FUNCTIONS must be a JSON object of function names by <group>/<Kind>');
  const functions: Record<string, string> = {};
  for (const [kind, name] of Object.entries(parsed)) {
    if (typeof name !== 'string' || name === '') throw new Error(`RECONCILER_FUNCTIONS["${kind}"] must be a function name or ARN`);
    functions[kind] = name;
  }
  return functions;
}
