/**
 * What one handler call came to, and how the answers of all handlers of a hook fold into one
 * result (Cluster API internal/runtime/client/client.go CallAllExtensions, CallExtension and
 * aggregateSuccessfulResponses). Pure, so the rules are tested without a network.
 */

import type { FailurePolicy } from '../../../../shared/contracts/hooks/index.js';
import type { HookResult } from '../../../../shared/ports/runtime-extensions.js';

export type HandlerOutcome =
  /** A decoded `status: Success` answer (retryAfterSeconds 0 for hooks without retry). */
  | { kind: 'success'; retryAfterSeconds: number; message: string; response?: Record<string, unknown> }
  /** The extension answered `status: Failure`: never masked by failurePolicy. */
  | { kind: 'failure'; message: string }
  /** Transport error, timeout, non-200 or a body that is not JSON: failurePolicy applies. */
  | { kind: 'callError'; message: string }
  /**
   * JSON that breaks the response contract (an unknown or missing status, a negative or
   * out-of-range retryAfterSeconds): never masked, so a malformed answer cannot let a blocking
   * hook through.
   */
  | { kind: 'invalid'; message: string };

export interface CalledHandler {
  /** `<handler>.<ExtensionConfig>`. */
  name: string;
  failurePolicy: FailurePolicy;
  outcome: HandlerOutcome;
}

export interface FoldState {
  retryAfterSeconds: number;
  messages: string[];
  handlers: string[];
}

export const EMPTY_FOLD: FoldState = { retryAfterSeconds: 0, messages: [], handlers: [] };

/** Smallest non-zero of two (util.LowestNonZeroInt32). */
export function lowestNonZero(a: number, b: number): number {
  if (a === 0) return b;
  if (b === 0) return a;
  return Math.min(a, b);
}

/** Adds one handler's outcome: either the next state, or the final Failure (calls stop there). */
export function foldOutcome(state: FoldState, called: CalledHandler): { state: FoldState } | { result: HookResult } {
  const handlers = [...state.handlers, called.name];
  const { outcome } = called;
  switch (outcome.kind) {
    case 'success':
      return {
        state: {
          retryAfterSeconds: lowestNonZero(state.retryAfterSeconds, outcome.retryAfterSeconds),
          messages: outcome.message ? [...state.messages, outcome.message] : state.messages,
          handlers,
        },
      };
    case 'callError':
      if (called.failurePolicy === 'Ignore') return { state: { ...state, handlers } };
      return { result: { status: 'Failure', message: `failed to call extension handler "${called.name}": ${outcome.message}`, handlers } };
    case 'failure':
      return {
        result: {
          status: 'Failure',
          message: `extension handler "${called.name}" answered Failure${outcome.message ? `: ${outcome.message}` : ''}`,
          handlers,
        },
      };
    case 'invalid':
      return { result: { status: 'Failure', message: `extension handler "${called.name}" sent an invalid response: ${outcome.message}`, handlers } };
  }
}

/** The aggregate once every handler answered without failing. */
export function finishFold(state: FoldState): HookResult {
  const message = state.messages.join(', ');
  return state.retryAfterSeconds > 0
    ? { status: 'Blocked', retryAfterSeconds: state.retryAfterSeconds, message, handlers: state.handlers }
    : { status: 'Success', message, handlers: state.handlers };
}

/** The whole fold over outcomes known in advance (the client folds as it calls, stopping at the first failure). */
export function aggregateOutcomes(called: readonly CalledHandler[]): HookResult {
  let state = EMPTY_FOLD;
  for (const entry of called) {
    const next = foldOutcome(state, entry);
    if ('result' in next) return next.result;
    state = next.state;
  }
  return finishFold(state);
}
