/** A HookClient that answers from a script and records every call (for lifecycle gate tests). */

import type { LifecycleHook } from '../../shared/contracts/hooks/index.js';
import type { KubeObject } from '../../shared/contracts/object.js';
import type { HookClient, HookResult } from '../../shared/ports/runtime-extensions.js';

export interface FakeHookCall {
  hook: LifecycleHook;
  cluster: KubeObject;
  body: Record<string, unknown>;
  result: HookResult;
}

export class FakeHookClient implements HookClient {
  readonly calls: FakeHookCall[] = [];

  constructor(private readonly answer: (hook: LifecycleHook, callIndex: number) => HookResult = () => ({ status: 'Success', message: '', handlers: [] })) {}

  async call<H extends LifecycleHook>(hook: H, cluster: KubeObject, body: object): Promise<HookResult> {
    const result = this.answer(hook, this.calls.length);
    this.calls.push({ hook, cluster, body: { ...body }, result });
    return result;
  }
}

export const PASS: HookResult = { status: 'Success', message: '', handlers: ['h.ext'] };
export const blocked = (retryAfterSeconds: number, message = 'wait'): HookResult => ({ status: 'Blocked', retryAfterSeconds, message, handlers: ['h.ext'] });
export const failed = (message = 'no'): HookResult => ({ status: 'Failure', message, handlers: ['h.ext'] });
