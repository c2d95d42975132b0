import { parseArgs } from 'node:util';
import { isRecord, stringAt } from '../../shared/contracts/json.js';
import { type ResourceType, qualifiedName, resourcePath } from '../client/resource-types.js';
import { CONNECTION_OPTIONS, type Session, openSession } from '../client/session.js';
import type { CliIo } from '../io/cli-io.js';
import { defineCommand } from '../io/define-command.js';
import { UsageError } from '../io/usage-error.js';
import { columnsFor } from '../output/columns.js';
import { type OutputFormat, asList, parseOutputFormat, renderDocument } from '../output/render-objects.js';
import { renderTable } from '../output/table.js';
import { printKubeconfig } from './get-kubeconfig.js';

/** `capless get KIND [NAME] [-n NS] [-A] [-l SELECTOR] [-o yaml|json|wide|name]`, and `capless get kubeconfig CLUSTER`. */
export const getCommand = defineCommand('get', 'list or show objects (get KIND [NAME]; get kubeconfig CLUSTER)', async (args, io) => {
  const { values, positionals } = parseArgs({
    args,
    options: {
      ...CONNECTION_OPTIONS,
      'all-namespaces': { type: 'boolean', short: 'A', default: false },
      output: { type: 'string', short: 'o' },
      selector: { type: 'string', short: 'l' },
    },
    allowPositionals: true,
    strict: true,
  });
  const [what, ...rest] = positionals;
  if (!what) throw new UsageError('get needs a KIND (e.g. clusters, machines, kcp, md) or `kubeconfig CLUSTER`');
  const format = parseOutputFormat(values.output);
  if (!format) throw new UsageError(`unknown output format ${JSON.stringify(values.output)}: use yaml, json, wide or name`);
  const session = await openSession(values, io);
  if (what === 'kubeconfig') {
    if (rest.length !== 1 || !rest[0]) throw new UsageError('usage: capless get kubeconfig CLUSTER [-n NS]');
    return printKubeconfig(session, rest[0], io);
  }
  return showObjects(session, what, rest, { format, all: values['all-namespaces'] === true, ...(values.selector ? { selector: values.selector } : {}) }, io);
});

async function showObjects(session: Session, what: string, rest: string[], options: { format: OutputFormat; all: boolean; selector?: string }, io: CliIo): Promise<number> {
  const { format, all } = options;
  const [kindName, nameInKind] = what.includes('/') ? what.split('/', 2) : [what, undefined];
  const type = await session.types.resolve(kindName ?? what);
  const names = nameInKind ? [nameInKind, ...rest] : rest;
  if (names.length > 0) {
    const objects = [];
    for (const name of names) objects.push(await session.client.get(resourcePath(type, session.namespace, name)));
    print(io, type, objects, format, false, names.length === 1);
    return 0;
  }
  const list = await session.client.get(resourcePath(type, all ? undefined : session.namespace), options.selector ? { labelSelector: options.selector } : undefined);
  const items = isRecord(list) && Array.isArray(list.items) ? list.items : [];
  if (items.length === 0 && (format === 'table' || format === 'wide')) {
    io.stderr.write(all || !type.namespaced ? 'No resources found\n' : `No resources found in ${session.namespace} namespace.\n`);
    return 0;
  }
  print(io, type, items, format, all && type.namespaced, false);
  return 0;
}

function print(io: CliIo, type: ResourceType, objects: unknown[], format: OutputFormat, withNamespace: boolean, single: boolean): void {
  if (format === 'yaml' || format === 'json') {
    io.stdout.write(renderDocument(single ? objects[0] : asList(objects), format));
    return;
  }
  if (format === 'name') {
    for (const o of objects) io.stdout.write(`${qualifiedName(type)}/${stringAt(o, 'metadata', 'name') ?? ''}\n`);
    return;
  }
  const columns = columnsFor(type.kind, objects).filter((c) => format === 'wide' || !c.wide);
  const now = io.now();
  const headers = [...(withNamespace ? ['NAMESPACE'] : []), 'NAME', ...columns.map((c) => c.header)];
  const rows = objects.map((o) => [
    ...(withNamespace ? [stringAt(o, 'metadata', 'namespace') ?? ''] : []),
    stringAt(o, 'metadata', 'name') ?? '',
    ...columns.map((c) => c.value(o, now)),
  ]);
  io.stdout.write(renderTable(headers, rows));
}
