import { valueAt } from '../../shared/contracts/json.js';
import { conditionsOf } from '../output/conditions.js';
import { UsageError } from '../io/usage-error.js';

/** What `wait --for=` asks for. */
export type WaitFor =
  | { type: 'condition'; condition: string; status: string }
  | { type: 'delete' }
  | { type: 'jsonpath'; path: string[]; value: string };

/** Parses `condition=Ready`, `condition=Ready=False`, `delete`, `jsonpath={.status.phase}=Provisioned`. */
export function parseWaitFor(text: string): WaitFor {
  if (text === 'delete') return { type: 'delete' };
  const condition = /^condition=([^=]+)(?:=(.+))?$/.exec(text);
  if (condition?.[1]) return { type: 'condition', condition: condition[1], status: condition[2] ?? 'True' };
  const jsonpath = /^jsonpath=['"]?\{\.?([A-Za-z0-9_.-]+)\}['"]?=(.*)$/.exec(text);
  if (jsonpath?.[1] !== undefined && jsonpath[2] !== undefined) return { type: 'jsonpath', path: jsonpath[1].split('.'), value: jsonpath[2].replace(/^['"]|['"]$/g, '') };
  throw new UsageError(`unrecognized --for ${JSON.stringify(text)}: use condition=TYPE[=STATUS], delete, or jsonpath='{.field.path}'=VALUE`);
}

/** Whether the object (undefined: it is gone) satisfies the wait, and what it shows now. */
export function checkWait(object: unknown, waitFor: WaitFor): { met: boolean; now: string } {
  if (waitFor.type === 'delete') return { met: object === undefined, now: object === undefined ? 'deleted' : 'still exists' };
  if (object === undefined) return { met: false, now: 'not found' };
  if (waitFor.type === 'jsonpath') {
    const value = valueAt(object, ...waitFor.path);
    const shown = value === undefined ? '<none>' : typeof value === 'string' ? value : JSON.stringify(value);
    return { met: shown === waitFor.value, now: `.${waitFor.path.join('.')}=${shown}` };
  }
  const found = conditionsOf(object).find((c) => c.type.toLowerCase() === waitFor.condition.toLowerCase());
  const now = found ? `${found.type}=${found.status}${found.reason ? ` (${found.reason}${found.message ? `: ${found.message}` : ''})` : ''}` : `${waitFor.condition} not reported yet`;
  return { met: found?.status.toLowerCase() === waitFor.status.toLowerCase(), now };
}
