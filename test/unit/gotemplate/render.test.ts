import { describe, expect, it } from 'vitest';
import { renderTemplate, TemplateError, templateParseError } from '../../../shared/gotemplate/execute.js';
import { semverCompare } from '../../../shared/gotemplate/semver.js';

const builtin = {
  cluster: { name: 'c1', namespace: 'ns', topology: { version: 'v1.33.0', class: 'quick-start' } },
  controlPlane: { version: 'v1.33.0+build.1', replicas: 3 },
  machineDeployment: { version: 'v1.32.2', topologyName: 'md-0', class: 'default-worker' },
};
const data = {
  builtin,
  imageRepository: '',
  etcdImageTag: '3.5.3-0',
  podSecurityStandard: { enabled: true, enforce: 'baseline', audit: 'restricted', warn: 'restricted' },
  list: ['a', 'b'],
};

describe('Go text/template rendering (vectors from Cluster API ClusterClasses)', () => {
  it.each([
    // quick-start enabledIf
    ['{{ ne .imageRepository "" }}', 'false'],
    ['{{ ne .etcdImageTag "" }}', 'true'],
    ['{{ .podSecurityStandard.enabled }}', 'true'],
    // quick-start valueFrom.template
    ['local:\n  imageTag: {{ .etcdImageTag }}\n', 'local:\n  imageTag: 3.5.3-0\n'],
    ['kindest/node:{{ .builtin.machineDeployment.version | replace "+" "_" }}', 'kindest/node:v1.32.2'],
    ['kindest/node:{{ .builtin.controlPlane.version | replace "+" "_" }}', 'kindest/node:v1.33.0_build.1'],
    ['v1{{ if semverCompare "< v1.25-0" .builtin.controlPlane.version }}beta1{{ end }}', 'v1'],
    ['enforce: "{{ .podSecurityStandard.enforce }}"', 'enforce: "baseline"'],
    // naming templates
    ['{{ .builtin.cluster.name }}-{{ .builtin.machineDeployment.topologyName }}', 'c1-md-0'],
    ['{{ printf "%s-%s" .builtin.cluster.name "cp" }}', 'c1-cp'],
    ['{{ .builtin.cluster.name | quote }}', '"c1"'],
    ['{{ eq .builtin.machineDeployment.class "default-worker" "other" }}', 'true'],
    ['{{ if eq .etcdImageTag "" }}none{{ else if eq .etcdImageTag "x" }}x{{ else }}{{ .etcdImageTag }}{{ end }}', '3.5.3-0'],
    ['{{- /* a comment */ -}}\n  {{ "trim" }}  {{- " me" }}', 'trim me'],
    ['{{ .podSecurityStandard | toYaml }}', 'audit: restricted\nenabled: true\nenforce: baseline\nwarn: restricted'],
    ['{{ range .list }}[{{ . }}]{{ end }}', '[a][b]'],
    ['{{ with .builtin.cluster }}{{ .namespace }}{{ end }}', 'ns'],
    ['{{ $v := .builtin.cluster.name }}{{ $v }}/{{ $.etcdImageTag }}', 'c1/3.5.3-0'],
    ['{{ .missing }}', '<no value>'],
    ['{{ and .podSecurityStandard.enabled (ne .etcdImageTag "") }}', 'true'],
    ['{{ not .imageRepository }}', 'true'],
    ['{{ default "registry.k8s.io" .imageRepository }}', 'registry.k8s.io'],
  ])('%j renders %j', (source, expected) => {
    expect(renderTemplate(source, data)).toBe(expected);
  });

  it.each([
    ['{{ .a', /unclosed action/],
    ['{{ if .a }}x', /no \{\{end\}\}/],
    ['{{ end }}', /unexpected \{\{end\}\}/],
    ['{{ "unterminated }}', /unterminated string|unclosed action/],
  ])('parse error for %j', (source, message) => {
    expect(templateParseError(source)).toMatch(message);
  });

  it.each([
    ['{{ nosuchfn 1 }}', /function "nosuchfn" not defined/],
    ['{{ .builtin.nothere.name }}', /nil pointer/],
    ['{{ eq .builtin.controlPlane.replicas "3" }}', /incompatible types/],
  ])('execution error for %j', (source, message) => {
    expect(() => renderTemplate(source, data)).toThrow(message);
  });

  it('missingkey=error (naming templates) refuses an unknown key', () => {
    expect(() => renderTemplate('{{ .cluster.nme }}', { cluster: { name: 'x' } }, { missingKeyError: true })).toThrow(TemplateError);
    expect(renderTemplate('{{ .cluster.name }}', { cluster: { name: 'x' } }, { missingKeyError: true })).toBe('x');
  });
});

describe('semverCompare', () => {
  it.each([
    ['< v1.25-0', 'v1.24.7', true],
    ['< v1.25-0', 'v1.25.0', false],
    ['< v1.25-0', 'v1.25.0-rc.1', false],
    ['< v1.25-0', 'v1.24.0-rc.1', true],
    ['>= 1.30', 'v1.33.0', true],
    ['>= 1.30, < 1.33', 'v1.33.0', false],
    ['< 1.20 || >= 1.33', 'v1.33.0', true],
    ['~1.33.0', 'v1.33.4', true],
    ['^1.2', 'v2.0.0', false],
    ['>= 1.30', 'v1.31.0-alpha.0', false],
  ])('%s against %s is %s', (constraint, version, expected) => {
    expect(semverCompare(constraint, version)).toBe(expected);
  });
});
