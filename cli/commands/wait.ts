import { parseArgs } from 'node:util';
import { isNotFoundStatus } from '../client/api-status-error.js';
import { parseDuration } from '../client/duration.js';
import { parseTarget } from '../client/object-target.js';
import { pollUntil } from '../client/poll.js';
import { qualifiedName, resourcePath } from '../client/resource-types.js';
import { CONNECTION_OPTIONS, openSession } from '../client/session.js';
import { checkWait, parseWaitFor } from '../client/wait-condition.js';
import { defineCommand } from '../io/define-command.js';

const USAGE = "usage: capless wait KIND/NAME --for=condition=Ready|delete|jsonpath='{.status.phase}'=VALUE [--timeout=5m]";

/** `capless wait KIND/NAME --for=… --timeout=…`: polls until the object satisfies the condition; exit 1 on timeout. */
export const waitCommand = defineCommand('wait', 'wait for a condition, a field value, or deletion (wait KIND/NAME --for=...)', async (args, io) => {
  const { values, positionals } = parseArgs({
    args,
    options: { ...CONNECTION_OPTIONS, for: { type: 'string' }, timeout: { type: 'string', default: '30s' } },
    allowPositionals: true,
    strict: true,
  });
  const target = parseTarget(positionals, USAGE);
  const waitFor = parseWaitFor(values.for ?? 'condition=Ready');
  const timeoutMs = parseDuration(values.timeout);
  const session = await openSession(values, io);
  const type = await session.types.resolve(target.kind);
  const path = resourcePath(type, session.namespace, target.name);
  const label = `${qualifiedName(type)}/${target.name}`;
  let last = '';
  const met = await pollUntil(io, timeoutMs, async () => {
    let object: unknown;
    try {
      object = await session.client.get(path);
    } catch (error) {
      if (!isNotFoundStatus(error)) throw error;
      if (waitFor.type !== 'delete') throw error;
    }
    const check = checkWait(object, waitFor);
    last = check.now;
    return { done: check.met, progress: `waiting for ${label}: ${check.now}` };
  });
  if (!met) {
    io.stderr.write(`error: timed out waiting for the condition on ${label} (last seen: ${last})\n`);
    return 1;
  }
  io.stdout.write(`${label} ${waitFor.type === 'delete' ? 'deleted' : 'condition met'}\n`);
  return 0;
});
