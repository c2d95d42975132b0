import { describe, expect, it } from 'vitest';
import { parseManifests } from '../../../cli/client/manifests.js';

describe('parseManifests', () => {
  it.each([
    ['two documents', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: b, namespace: x}\n', ['ConfigMap/a@', 'Secret/b@x']],
    ['empty documents and comments are skipped', '---\n# nothing\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n', ['ConfigMap/a@']],
    ['a List is expanded', 'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n', ['ConfigMap/a@', 'ConfigMap/b@']],
    ['JSON is YAML', '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"j"}}', ['ConfigMap/j@']],
  ])('%s', (_label, text, expected) => {
    expect(parseManifests(text, 'test').map((m) => `${m.kind}/${m.name}@${m.namespace ?? ''}`)).toEqual(expected);
  });

  it.each([
    ['not YAML', 'a: [1, 2', /not valid YAML/],
    ['a scalar', 'just text', /must be an object/],
    ['no kind', 'apiVersion: v1\nmetadata: {name: a}\n', /apiVersion and kind are required/],
    ['no name', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n', /has no metadata.name/],
    ['alias bomb', 'a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n', /alias|Excessive|object/i],
  ])('refuses %s', (_label, text, message) => {
    expect(() => parseManifests(text, 'test')).toThrow(message);
  });
});
