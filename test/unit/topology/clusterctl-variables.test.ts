// biome-ignore-all lint/suspicious/noTemplateCurlyInString: clusterctl ${VAR} placeholders are the data under test
import { describe, expect, it } from 'vitest';
import { generateCluster, MissingVariablesError, substituteVariables, templateVariables } from '../../../cli/templates/clusterctl-variables.js';

describe('clusterctl variable substitution', () => {
  it.each([
    ['name: ${NAME}', { NAME: 'x' }, 'name: x'],
    ['v: ${A:=dflt}', {}, 'v: dflt'],
    ['v: ${A:=dflt}', { A: '' }, 'v: dflt'],
    ['v: ${A:-dflt}', { A: 'set' }, 'v: set'],
    ['v: ${A=dflt}', { A: '' }, 'v: '],
    ['cidrs: ${SERVICE_CIDR:=["10.128.0.0/12"]}', {}, 'cidrs: ["10.128.0.0/12"]'],
    ['d: ${SERVICE_DOMAIN:="cluster.local"}', {}, 'd: "cluster.local"'],
    ['literal $$HOME and $PATH', {}, 'literal $HOME and $PATH'],
  ])('%s with %j → %s', (text, values, expected) => {
    expect(substituteVariables(text, values)).toBe(expected);
  });

  it('names every variable without a value or default', () => {
    try {
      substituteVariables('${B} ${A} ${A} ${C:=x}', {});
      expect.unreachable();
    } catch (error) {
      if (!(error instanceof MissingVariablesError)) throw error;
      expect(error.names).toEqual(['A', 'B']);
      expect(error.message).toContain('[A, B]');
    }
  });

  it('lists the variables a template uses', () => {
    expect(templateVariables('${A} ${B:=1} ${A}')).toEqual([
      { name: 'A', hasDefault: false },
      { name: 'B', hasDefault: true },
    ]);
  });

  it('fills clusterctl flags over the environment (CLUSTER_NAME, NAMESPACE, counts, version)', () => {
    const template = '${CLUSTER_NAME}/${NAMESPACE}/${KUBERNETES_VERSION}/${CONTROL_PLANE_MACHINE_COUNT}/${WORKER_MACHINE_COUNT}/${EXTRA}';
    expect(generateCluster(template, { clusterName: 'c', kubernetesVersion: 'v1.33.0', controlPlaneMachineCount: 3 }, { EXTRA: 'e', WORKER_MACHINE_COUNT: '4' })).toBe(
      'c/default/v1.33.0/3/4/e',
    );
    expect(() => generateCluster('${KUBERNETES_VERSION}', { clusterName: 'c' }, {})).toThrow(/KUBERNETES_VERSION/);
  });
});
