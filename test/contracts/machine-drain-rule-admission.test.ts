/**
 * MachineDrainRule admission, in v1beta2 and v1beta1 alike: what Cluster API v1.14's CRD and
 * validating webhook accept is admitted (stored as v1beta2), what they refuse is a 422 whose
 * cause names the field, worded as they word it.
 */

import { describe, expect, it } from 'vitest';
import { admitCreate } from '../../shared/contracts/admission/admit.js';
import { machineDrainRuleSchema } from '../../shared/contracts/schemas/core/machine-drain-rule.js';
import { labelSelectorErrors } from '../../shared/contracts/validation/label-selector.js';
import { validateMachineDrainRule } from '../../shared/contracts/validation/machine-drain-rule.js';
import { InvalidError } from '../../shared/errors/index.js';
import { ctx, machineDrainRule } from './admission-fixtures.js';

type Spec = Record<string, unknown>;

const rule = (version: string, spec: Spec | undefined) => {
  const { spec: _valid, ...rest } = machineDrainRule();
  return { ...rest, apiVersion: `cluster.x-k8s.io/${version}`, ...(spec ? { spec } : {}) };
};

/** The causes of the refusal as `field: message`, or undefined when admitted. */
function refusal(object: unknown): { field: string; message: string }[] | undefined {
  try {
    admitCreate(object, ctx);
    return undefined;
  } catch (error) {
    if (error instanceof InvalidError) return error.causes.map((c) => ({ field: c.field ?? '', message: c.message ?? '' }));
    throw error;
  }
}

const drain = { behavior: 'Drain' };
const exists = (key: string, values?: string[]) => ({ matchExpressions: [{ key, operator: 'Exists', ...(values ? { values } : {}) }] });
const manyMachines = Array.from({ length: 33 }, (_, i) => ({ selector: { matchLabels: { index: `${i}` } } }));

describe.each(['v1beta2', 'v1beta1'])('MachineDrainRule %s', (version) => {
  it.each<[string, Spec]>([
    ['behavior Drain', { drain }],
    ['behavior Drain with an order', { drain: { behavior: 'Drain', order: -5 } }],
    ['behavior Skip', { drain: { behavior: 'Skip' } }],
    ['behavior WaitCompleted', { drain: { behavior: 'WaitCompleted' } }],
    ['every selector, by labels and by expressions', machineDrainRule().spec],
    ['empty selectors (everything)', { drain, machines: [{ selector: {} }], pods: [{ namespaceSelector: {} }] }],
    ['In and NotIn with values, DoesNotExist without', { drain, pods: [{ selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['a'] }, { key: 'tier', operator: 'NotIn', values: ['x', 'y'] }, { key: 'example.com/skip', operator: 'DoesNotExist' }] } }] }],
    ['32 entries', { drain, machines: manyMachines.slice(0, 32) }],
    ['entries alike but for one selector', { drain, pods: [{ selector: { matchLabels: { app: 'a' } } }, { selector: { matchLabels: { app: 'a' } }, namespaceSelector: {} }] }],
  ])('admits %s, stored as v1beta2', (_name, spec) => {
    expect(refusal(rule(version, spec))).toBeUndefined();
    expect(admitCreate(rule(version, spec), ctx)).toMatchObject({ apiVersion: 'cluster.x-k8s.io/v1beta2', spec });
  });

  it.each<[string, Spec | undefined, string, string]>([
    ['an order with Skip', { drain: { behavior: 'Skip', order: 1 } }, 'spec.drain.order', 'Invalid value: 1: order must not be set if drain behavior is "Skip" or "WaitCompleted"'],
    ['an order with WaitCompleted', { drain: { behavior: 'WaitCompleted', order: 0 } }, 'spec.drain.order', 'order must not be set if drain behavior is "Skip" or "WaitCompleted"'],
    ['In without values', { drain, machines: [{ selector: { matchExpressions: [{ key: 'os', operator: 'In' }] } }] }, 'spec.machines[0].selector', "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty"],
    ['NotIn with no values', { drain, pods: [{ namespaceSelector: { matchExpressions: [{ key: 'os', operator: 'NotIn', values: [] }] } }] }, 'spec.pods[0].namespaceSelector', "for 'in', 'notin' operators, values set can't be empty"],
    ['Exists with values', { drain, pods: [{ selector: exists('app', ['a']) }] }, 'spec.pods[0].selector', 'values: Invalid value: []string{"a"}: values set must be empty for exists and does not exist'],
    ['a bad label key', { drain, machines: [{ selector: {} }, { clusterSelector: { matchLabels: { 'bad key': 'x' } } }] }, 'spec.machines[1].clusterSelector', 'key: Invalid value: "bad key": name part must consist of alphanumeric characters'],
    ['a bad label value', { drain, pods: [{ selector: { matchLabels: { app: 'not ok' } } }] }, 'spec.pods[0].selector', 'values[0][app]: Invalid value: "not ok": a valid label must be an empty string'],
    ['duplicate machines entries', { drain, machines: [{ selector: { matchLabels: { a: '1', b: '2' } } }, { selector: { matchLabels: { b: '2', a: '1' } } }] }, 'spec.machines', 'Invalid value: "array": entries in machines must be unique'],
    ['duplicate pods entries', { drain, pods: [{ selector: {} }, { selector: {} }] }, 'spec.pods', 'entries in pods must be unique'],
    ['an empty pods entry', { drain, pods: [{}] }, 'spec.pods[0]', 'spec.pods[0] in body should have at least 1 properties'],
    ['no machines entries', { drain, machines: [] }, 'spec.machines', 'spec.machines in body should have at least 1 items'],
    ['33 machines entries', { drain, machines: manyMachines }, 'spec.machines', 'Too many: 33: must have at most 32 items'],
    ['no behavior', { drain: { order: 1 } }, 'spec.drain.behavior', 'Required value'],
    ['an unknown behavior', { drain: { behavior: 'Evict' } }, 'spec.drain.behavior', 'Unsupported value: "Evict"'],
    ['an order past int32', { drain: { behavior: 'Drain', order: 2 ** 31 } }, 'spec.drain.order', 'spec.drain.order in body should be less than or equal to 2147483647'],
    ['an unknown operator', { drain, pods: [{ selector: { matchExpressions: [{ key: 'a', operator: 'Equals', values: ['b'] }] } }] }, 'spec.pods[0].selector.matchExpressions[0].operator', 'Unsupported value: "Equals"'],
    ['an unknown field', { drain, nodes: [] }, 'spec.nodes', 'unknown field "spec.nodes"'],
    ['no drain', { machines: [{ selector: {} }] }, 'spec.drain', 'Required value'],
    ['no spec', undefined, 'spec', 'Required value'],
  ])('refuses %s at the field', (_name, spec, field, message) => {
    const causes = refusal(rule(version, spec));
    expect(causes?.map((c) => c.field)).toContain(field);
    expect(causes?.find((c) => c.field === field)?.message).toContain(message);
  });
});

describe('validateMachineDrainRule (the webhook)', () => {
  const parsed = (spec: Spec) => machineDrainRuleSchema.parse(rule('v1beta2', spec));

  it('reports every bad selector and the order, each at its path', () => {
    const errors = validateMachineDrainRule(
      parsed({
        drain: { behavior: 'Skip', order: 3 },
        machines: [{ selector: exists('a', ['x']), clusterSelector: { matchExpressions: [{ key: 'b', operator: 'In' }] } }],
        pods: [{ selector: { matchLabels: { ok: 'yes' } }, namespaceSelector: exists('-bad-') }],
      }),
    );
    expect(errors.map((e) => e.field)).toEqual(['spec.drain.order', 'spec.machines[0].selector', 'spec.machines[0].clusterSelector', 'spec.pods[0].namespaceSelector']);
    expect(errors.every((e) => e.reason === 'FieldValueInvalid')).toBe(true);
  });

  it('finds nothing wrong with a valid rule', () => {
    expect(validateMachineDrainRule(parsed(machineDrainRule().spec))).toEqual([]);
  });
});

describe('labelSelectorErrors (metav1.LabelSelectorAsSelector)', () => {
  it.each<[string, Parameters<typeof labelSelectorErrors>[0], string | undefined]>([
    ['an empty selector', {}, undefined],
    ['labels and expressions', { matchLabels: { 'example.com/role': 'db' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', ''] }] }, undefined],
    ['a key with an empty prefix', { matchLabels: { '/name': 'v' } }, 'key: Invalid value: "/name": prefix part must be non-empty'],
    ['a value too long', { matchLabels: { app: 'v'.repeat(64) } }, `values[0][app]: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`],
    [
      'a requirement wrong twice (Go aggregates them)',
      { matchExpressions: [{ key: 'bad key', operator: 'DoesNotExist', values: ['x'] }] },
      '[key: Invalid value: "bad key": name part must consist of alphanumeric characters',
    ],
    ['only the first bad requirement', { matchExpressions: [{ key: 'a', operator: 'In' }, { key: 'b', operator: 'Exists', values: ['c'] }] }, "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty"],
  ])('%s', (_name, selector, message) => {
    const errors = labelSelectorErrors(selector, 'spec.selector');
    if (message === undefined) return expect(errors).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ field: 'spec.selector', reason: 'FieldValueInvalid', value: selector });
    expect(errors[0]?.detail?.startsWith(message)).toBe(true);
  });
});
