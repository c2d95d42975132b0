/**
 * The printer columns capless declares on its kinds are Cluster API's: compared, column for
 * column, with the `additionalPrinterColumns` of the storage version in each CRD under
 * ../shared/capi-samples/crds. Those files live outside the repository; without them the
 * comparison is skipped with the reason (the Table tests in test/unit/api cover the columns inline).
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { isRecord } from '../../shared/contracts/json.js';
import { defaultKinds } from '../../shared/contracts/kinds.js';

const CRDS = fileURLToPath(new URL('../../../shared/capi-samples/crds/', import.meta.url));

interface CrdColumns {
  file: string;
  group: string;
  kind: string;
  columns: unknown[];
  shortNames: unknown[];
}

function crdColumns(): CrdColumns[] {
  if (!existsSync(CRDS)) return [];
  return readdirSync(CRDS)
    .filter((file) => file.endsWith('.yaml'))
    .flatMap((file): CrdColumns[] => {
      const crd: unknown = parse(readFileSync(`${CRDS}${file}`, 'utf8'));
      if (!isRecord(crd) || !isRecord(crd.spec) || !isRecord(crd.spec.names) || !Array.isArray(crd.spec.versions)) return [];
      const storage = crd.spec.versions.find((v) => isRecord(v) && v.storage === true);
      const columns = isRecord(storage) && Array.isArray(storage.additionalPrinterColumns) ? storage.additionalPrinterColumns : [];
      const shortNames = Array.isArray(crd.spec.names.shortNames) ? crd.spec.names.shortNames : [];
      return [{ file, group: String(crd.spec.group), kind: String(crd.spec.names.kind), columns, shortNames }];
    });
}

const all = crdColumns();
const crds = all.filter((c) => defaultKinds.get(c.group, c.kind));
const unserved = all.filter((c) => !defaultKinds.get(c.group, c.kind));

describe("printer columns and short names are Cluster API's", () => {
  if (all.length === 0) it('upstream CRDs', (context) => context.skip(`${CRDS} is absent: printer columns not compared with Cluster API's CRDs`));
  for (const crd of unserved) it(`${crd.file} skipped`, (context) => context.skip(`capless does not serve ${crd.kind} on this branch yet`));
  it.each(crds.map((c) => [c.file, c] as const))('%s', (_file, crd) => {
    const info = defaultKinds.get(crd.group, crd.kind);
    expect(info?.printerColumns ?? []).toEqual(crd.columns);
    expect(info?.shortNames ?? []).toEqual(crd.shortNames);
  });
});

/** Kinds whose CRD is not among the samples: their columns as Cluster API v1.14.0's CRD declares them (storage version). */
describe("printer columns of kinds whose CRD is not among the samples are Cluster API v1.14.0's", () => {
  it.each([
    [
      'MachineDrainRule',
      [
        { description: 'Drain behavior', jsonPath: '.spec.drain.behavior', name: 'Behavior', type: 'string' },
        { description: 'Drain order', jsonPath: '.spec.drain.order', name: 'Order', type: 'string' },
        { description: 'Time duration since creation of the MachineDrainRule', jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' },
      ],
    ],
  ])('%s (cluster.x-k8s.io_machinedrainrules.yaml, no short names)', (kind, columns) => {
    const info = defaultKinds.get('cluster.x-k8s.io', kind);
    expect(info?.printerColumns).toEqual(columns);
    expect(info?.shortNames).toBeUndefined();
    expect(info).toMatchObject({ plural: 'machinedrainrules', namespaced: true, statusSubresource: false, versions: ['v1beta2', 'v1beta1'] });
  });
});
