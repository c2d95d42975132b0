import { describe, expect, it } from 'vitest';
import type { LabelSelector } from '../../shared/contracts/schemas/common/selector.js';
import {
  type FieldError,
  fieldPath,
  forbidden,
  invalid,
  notSupported,
  renderFieldError,
  required,
  tooLong,
  tooLongBytes,
  tooMany,
} from '../../shared/contracts/validation/field-error.js';
import { selectorMatches } from '../../shared/contracts/validation/label-selector.js';
import { isKubernetesVersion } from '../../shared/contracts/validation/kubernetes-version.js';

describe('fieldPath', () => {
  it.each([
    [['spec', 'replicas'], 'spec.replicas'],
    [['spec', 'topology', 'workers', 'machineDeployments', 0, 'name'], 'spec.topology.workers.machineDeployments[0].name'],
    [['metadata', 'labels', 'cluster.x-k8s.io/cluster-name'], 'metadata.labels[cluster.x-k8s.io/cluster-name]'],
    [[], ''],
  ])('%j → %s', (segments, expected) => {
    expect(fieldPath(segments)).toBe(expected);
  });
});

describe('renderFieldError', () => {
  it.each<[FieldError, string]>([
    [invalid('spec.replicas', 2, 'must be odd'), 'spec.replicas: Invalid value: 2: must be odd'],
    [invalid('spec.version', 'v1', 'bad'), 'spec.version: Invalid value: "v1": bad'],
    [required('spec.clusterName'), 'spec.clusterName: Required value'],
    [forbidden('spec.x', 'unknown field "spec.x"'), 'spec.x: Forbidden: unknown field "spec.x"'],
    [notSupported('spec.format', 'yaml', ['cloud-config', 'ignition']), 'spec.format: Unsupported value: "yaml": supported values: "cloud-config", "ignition"'],
    [tooLong('spec.clusterName', 'x', 63), 'spec.clusterName: Too long: may not be more than 63 bytes'],
    [tooLongBytes('metadata.annotations', 262144), 'metadata.annotations: Too long: must have at most 262144 bytes'],
    [tooMany('spec.clusterNetwork.pods.cidrBlocks', 101, 100), 'spec.clusterNetwork.pods.cidrBlocks: Too many: 101: must have at most 100 items'],
    [invalid('metadata.labels', 'k'.repeat(300), 'bad'), `metadata.labels: Invalid value: "${'k'.repeat(256)}"... (300 characters): bad`],
  ])('%j', (error, expected) => {
    expect(renderFieldError(error)).toBe(expected);
  });
});

describe('selectorMatches', () => {
  const labels = { pool: 'a', tier: 'web' };
  it.each<[string, LabelSelector, boolean]>([
    ['matchLabels hit', { matchLabels: { pool: 'a' } }, true],
    ['matchLabels miss', { matchLabels: { pool: 'b' } }, false],
    ['In', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['web', 'db'] }] }, true],
    ['NotIn', { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['web'] }] }, false],
    ['Exists', { matchExpressions: [{ key: 'pool', operator: 'Exists' }] }, true],
    ['DoesNotExist', { matchExpressions: [{ key: 'pool', operator: 'DoesNotExist' }] }, false],
  ])('%s', (_name, selector, expected) => {
    expect(selectorMatches(selector, labels)).toBe(expected);
  });
});

describe('isKubernetesVersion', () => {
  it.each([
    ['v1.31.0', true],
    ['v1.37.0-beta.0', true],
    ['v1.30.2+build.1', true],
    ['1.31.0', false],
    ['v1.31', false],
    ['v01.31.0', false],
    ['latest', false],
  ])('%s → %s', (version, expected) => {
    expect(isKubernetesVersion(version)).toBe(expected);
  });
});
