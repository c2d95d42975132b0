import { parseArgs } from 'node:util';
import { isNotFoundStatus } from '../client/api-status-error.js';
import { parseDuration } from '../client/duration.js';
import { readManifests } from '../client/manifests.js';
import { parseTarget } from '../client/object-target.js';
import { pollUntil } from '../client/poll.js';
import { type ResourceType, qualifiedName, resourcePath } from '../client/resource-types.js';
import { CONNECTION_OPTIONS, type Session, openSession } from '../client/session.js';
import type { CliIo } from '../io/cli-io.js';
import { defineCommand } from '../io/define-command.js';
import { UsageError } from '../io/usage-error.js';

const USAGE = 'usage: capless delete -f FILE|DIR|- | KIND NAME [--wait] [--timeout 5m] [--ignore-not-found]';

interface Target {
  type: ResourceType;
  namespace: string;
  name: string;
}

/** `capless delete -f FILE | KIND NAME [--wait]`: deletes (Background propagation); `--wait` polls until each object is gone. */
export const deleteCommand = defineCommand('delete', 'delete objects (delete -f FILE | KIND NAME [--wait])', async (args, io) => {
  const { values, positionals } = parseArgs({
    args,
    options: {
      ...CONNECTION_OPTIONS,
      filename: { type: 'string', short: 'f', multiple: true },
      wait: { type: 'boolean', default: false },
      timeout: { type: 'string', default: '5m' },
      'ignore-not-found': { type: 'boolean', default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  const timeoutMs = parseDuration(values.timeout);
  const session = await openSession(values, io);
  const targets = await targetsOf(session, values.filename ?? [], positionals, io);
  let failed = 0;
  const deleted: Target[] = [];
  for (const target of targets) {
    const label = `${qualifiedName(target.type)} "${target.name}"`;
    try {
      await session.client.request('DELETE', resourcePath(target.type, target.namespace, target.name), { body: { propagationPolicy: 'Background' } });
      io.stdout.write(`${label} deleted\n`);
      deleted.push(target);
    } catch (error) {
      if (!isNotFoundStatus(error)) throw error;
      if (values['ignore-not-found']) continue;
      // Deleting an owner (a Cluster) removes what it owns: a later object of the same run that is
      // already gone was deleted with it, which is what the user asked for.
      if (deleted.length > 0) {
        io.stdout.write(`${label} deleted (already gone with an object deleted before it)\n`);
        continue;
      }
      io.stderr.write(`Error from server (NotFound): ${label} not found\n`);
      failed++;
    }
  }
  if (values.wait && deleted.length > 0 && !(await waitGone(session, deleted, timeoutMs, io))) return 1;
  return failed === 0 ? 0 : 1;
});

async function targetsOf(session: Session, files: string[], positionals: string[], io: CliIo): Promise<Target[]> {
  if (files.length > 0) {
    if (positionals.length > 0) throw new UsageError(USAGE);
    const targets: Target[] = [];
    for (const file of files) {
      for (const m of await readManifests(file, io)) {
        targets.push({ type: await session.types.forKind(m.apiVersion, m.kind), namespace: m.namespace ?? session.namespace, name: m.name });
      }
    }
    return targets;
  }
  const { kind, name } = parseTarget(positionals, USAGE);
  return [{ type: await session.types.resolve(kind), namespace: session.namespace, name }];
}

async function waitGone(session: Session, targets: Target[], timeoutMs: number, io: CliIo): Promise<boolean> {
  let remaining = targets;
  const gone = await pollUntil(io, timeoutMs, async () => {
    const still: Target[] = [];
    for (const t of remaining) {
      try {
        await session.client.get(resourcePath(t.type, t.namespace, t.name));
        still.push(t);
      } catch (error) {
        if (!isNotFoundStatus(error)) throw error;
      }
    }
    remaining = still;
    return { done: still.length === 0, progress: `waiting for deletion: ${still.map((t) => `${qualifiedName(t.type)}/${t.name}`).join(', ')}` };
  });
  if (!gone) io.stderr.write(`error: timed out waiting for deletion of ${remaining.map((t) => `${qualifiedName(t.type)}/${t.name}`).join(', ')}\n`);
  return gone;
}
