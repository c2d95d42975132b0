/**
 * A deployed function run the way Lambda runs it: its bundled code in a process of its own
 * (function-host.mjs), its environment as CloudFormation resolved it plus the variables the
 * Lambda runtime adds, one invocation at a time, a timeout that ends the environment (the next
 * invocation starts a fresh one, as after a Lambda timeout). Counts invocations and errors.
 */

import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Credentials } from './sigv4.js';

const HOST = join(import.meta.dirname, 'function-host.mjs');

export interface FunctionSpec {
  logicalId: string;
  name: string;
  arn: string;
  handler: string;
  timeoutSeconds: number;
  memoryMb: number;
  /** The environment CloudFormation resolved (GetFunction). */
  environment: Record<string, string>;
  /** The unpacked code. */
  codeDir: string;
  role: string;
}

export type InvokeResult = { ok: true; result: unknown } | { ok: false; error: { errorType: string; errorMessage: string } };

interface Pending {
  resolve: (result: InvokeResult) => void;
  timer: NodeJS.Timeout;
  /** The environment running it: only its exit fails this invocation. */
  child: ChildProcess;
}

export interface RuntimeEndpoint {
  /** moto's endpoint: every AWS call of the function goes there… */
  endpoint: string;
  /** …but Lambda's: asynchronous invocations (lambda-invoke-api.ts). */
  lambdaEndpoint?: string;
  region: string;
}

export class DeployedFunction {
  invocations = 0;
  errors: { errorType: string; errorMessage: string }[] = [];
  /** The last lines the function wrote (stdout and stderr), for failure messages. */
  readonly logTail: string[] = [];
  private child: ChildProcess | undefined;
  private readonly pending = new Map<string, Pending>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly spec: FunctionSpec,
    private readonly runtime: RuntimeEndpoint,
    private credentials: Credentials,
  ) {}

  /** Credentials the next environment starts with (its role's, under IAM enforcement). */
  useCredentials(credentials: Credentials): void {
    this.credentials = credentials;
    this.stopEnvironment();
  }

  /** Invokes synchronously (RequestResponse): one at a time per function, like one execution environment. */
  invoke(event: unknown): Promise<InvokeResult> {
    const run = this.queue.then(() => this.invokeNow(event));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private invokeNow(event: unknown): Promise<InvokeResult> {
    const child = this.environment();
    const id = randomUUID();
    const timeoutMs = this.spec.timeoutSeconds * 1000;
    this.invocations += 1;
    return new Promise<InvokeResult>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        this.stopEnvironment();
        resolve({ ok: false, error: { errorType: 'Sandbox.Timedout', errorMessage: `Task timed out after ${this.spec.timeoutSeconds} seconds` } });
      }, timeoutMs);
      this.pending.set(id, { resolve, timer, child });
      child.send({ id, event, requestId: id, deadlineMs: Date.now() + timeoutMs });
    }).then((result) => {
      if (!result.ok) this.errors.push(result.error);
      return result;
    });
  }

  private environment(): ChildProcess {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) return this.child;
    const { spec, runtime, credentials } = this;
    const child = fork(HOST, [], {
      cwd: spec.codeDir,
      execArgv: [],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: {
        PATH: process.env.PATH,
        ...spec.environment,
        // What the Lambda runtime sets (https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html#configuration-envvars-runtime)…
        LAMBDA_TASK_ROOT: spec.codeDir,
        _HANDLER: spec.handler,
        AWS_REGION: runtime.region,
        AWS_DEFAULT_REGION: runtime.region,
        AWS_LAMBDA_FUNCTION_NAME: spec.name,
        AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
        AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(spec.memoryMb),
        AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${spec.name}`,
        AWS_ACCESS_KEY_ID: credentials.accessKeyId,
        AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
        ...(credentials.sessionToken ? { AWS_SESSION_TOKEN: credentials.sessionToken } : {}),
        TZ: 'UTC',
        CAPLESS_FUNCTION_ARN: spec.arn,
        // …and the one thing a real deployment does not: every AWS endpoint is moto.
        AWS_ENDPOINT_URL: runtime.endpoint,
        ...(runtime.lambdaEndpoint ? { AWS_ENDPOINT_URL_LAMBDA: runtime.lambdaEndpoint } : {}),
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      },
    });
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line.trim() !== '') this.logTail.push(line);
      if (this.logTail.length > 200) this.logTail.splice(0, this.logTail.length - 200);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('message', (message: unknown) => this.answer(message));
    child.on('exit', (code, signal) => {
      // A killed environment (after a timeout) exits after the next invocation may have started
      // in a fresh one: fail only what ran here.
      for (const [id, pending] of this.pending) {
        if (pending.child !== child) continue;
        clearTimeout(pending.timer);
        this.pending.delete(id);
        pending.resolve({ ok: false, error: { errorType: 'Runtime.ExitError', errorMessage: `environment exited (${signal ?? code})` } });
      }
    });
    this.child = child;
    return child;
  }

  private answer(message: unknown): void {
    if (typeof message !== 'object' || message === null) return;
    const id = Reflect.get(message, 'id');
    const pending = typeof id === 'string' ? this.pending.get(id) : undefined;
    if (!pending || typeof id !== 'string') return;
    clearTimeout(pending.timer);
    this.pending.delete(id);
    if (Reflect.get(message, 'ok') === true) {
      pending.resolve({ ok: true, result: Reflect.get(message, 'result') });
      return;
    }
    const error: unknown = Reflect.get(message, 'error');
    const errorType = typeof error === 'object' && error !== null ? String(Reflect.get(error, 'errorType')) : 'Error';
    const errorMessage = typeof error === 'object' && error !== null ? String(Reflect.get(error, 'errorMessage')) : String(error);
    pending.resolve({ ok: false, error: { errorType, errorMessage } });
  }

  private stopEnvironment(): void {
    this.child?.kill('SIGKILL');
    this.child = undefined;
  }

  /** Waits for the invocation in progress, then ends the environment. */
  async stop(): Promise<void> {
    await this.queue;
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}
