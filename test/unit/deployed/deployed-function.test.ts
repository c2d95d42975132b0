/**
 * The deployed runtime's hang guard: an invocation ends at the function's timeout (on a fake
 * clock: no test waits for it), with Lambda's `Sandbox.Timedout`, and the next invocation runs in
 * a fresh environment, so a handler that never answers can hold its message past the queue's
 * visibility timeout but never hangs the poller. The other ways an invocation fails are reported
 * the way Lambda reports them.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DeployedFunction, type FunctionSpec, type InvokeResult } from '../../aws-wire/deployed/deployed-function.js';

const HANDLER = `
export async function handler(event) {
  if (event.do === 'hang') return new Promise(() => undefined);
  if (event.do === 'throw') throw new TypeError('the handler threw');
  if (event.do === 'exit') process.exit(3);
  return { pid: process.pid };
}
`;

const TIMEOUT_SECONDS = 30;
let codeDir: string;
let fn: DeployedFunction | undefined;

beforeAll(() => {
  codeDir = mkdtempSync(join(tmpdir(), 'capless-deployed-function-'));
  writeFileSync(join(codeDir, 'index.mjs'), HANDLER);
});

afterAll(() => rmSync(codeDir, { recursive: true, force: true }));

afterEach(async () => {
  vi.useRealTimers();
  await fn?.stop();
  fn = undefined;
});

function deployed(): DeployedFunction {
  const spec: FunctionSpec = {
    logicalId: 'Fn',
    name: 'fn',
    arn: 'arn:aws:lambda:eu-west-1:123456789012:function:fn',
    handler: 'index.handler',
    timeoutSeconds: TIMEOUT_SECONDS,
    memoryMb: 128,
    environment: {},
    codeDir,
    role: 'arn:aws:iam::123456789012:role/fn',
  };
  fn = new DeployedFunction(spec, { endpoint: 'http://127.0.0.1:1', region: 'eu-west-1' }, { accessKeyId: 'AKID', secretAccessKey: 'secret' });
  return fn;
}

function pidOf(result: InvokeResult): unknown {
  return result.ok ? Reflect.get(Object(result.result), 'pid') : undefined;
}

describe('a deployed function invocation', () => {
  it('ends at the function timeout with Sandbox.Timedout, and the next invocation starts a fresh environment', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const f = deployed();
    const before = pidOf(await f.invoke({ do: 'answer' }));
    expect(before).toEqual(expect.any(Number));

    const hung = f.invoke({ do: 'hang' });
    const answered = f.invoke({ do: 'answer' });
    await vi.advanceTimersByTimeAsync(TIMEOUT_SECONDS * 1000);
    expect(await hung).toEqual({ ok: false, error: { errorType: 'Sandbox.Timedout', errorMessage: `Task timed out after ${TIMEOUT_SECONDS} seconds` } });

    const after = pidOf(await answered);
    expect(after).toEqual(expect.any(Number));
    expect(after).not.toBe(before);
    expect(f.errors.map((e) => e.errorType)).toEqual(['Sandbox.Timedout']);
    expect(f.invocations).toBe(3);
  });

  it.each([
    ['a thrown error', 'throw', { errorType: 'TypeError', errorMessage: 'the handler threw' }],
    ['an environment that exits', 'exit', { errorType: 'Runtime.ExitError', errorMessage: 'environment exited (3)' }],
  ])('reports %s as a function error and keeps serving', async (_case, what, error) => {
    const f = deployed();
    expect(await f.invoke({ do: what })).toEqual({ ok: false, error });
    expect(pidOf(await f.invoke({ do: 'answer' }))).toEqual(expect.any(Number));
    expect(f.errors).toEqual([error]);
  });
});
