import { describe, expect, it } from 'vitest';
import { parseResourcePath } from '../../../functions/api/paths.js';
import { splitRequestTarget } from '../../../local/http-server.js';
import { KindRegistry } from '../../../shared/contracts/kinds.js';
import { ApiError } from '../../../shared/errors/index.js';

const kinds = new KindRegistry();

function outcome(path: string): string {
  try {
    const parsed = parseResourcePath(path, kinds);
    return parsed ? `${parsed.info.kind} ${parsed.namespace ?? '*'}/${parsed.name ?? ''}` : 'not a resource path';
  } catch (error) {
    if (error instanceof ApiError) return String(error.code);
    throw error;
  }
}

describe('resource paths are routed on raw segments', () => {
  it.each([
    ['/api/v1/namespaces/default/secrets/s1', 'Secret default/s1'],
    ['/api/v1/namespaces/default/secrets%2fs1', '400'],
    ['/api/v1/namespaces/default/secrets%2Fs1', '400'],
    ['/api/v1/namespaces/%2e%2e/configmaps', '400'],
    ['/api/v1/namespaces/../configmaps', '400'],
    ['/api/v1/namespaces/default/configmaps/%63', 'ConfigMap default/c'],
    ['/api/v1/namespaces/default/configmaps/%zz', '400'],
    ['/api/v1/namespaces/default//secrets/s1', '400'],
    ['/api/v1/namespaces/default/secrets/s1/', '400'],
    [`/api/v1/namespaces/default/configmaps/${'a'.repeat(254)}`, '400'],
    [`/api/v1/namespaces/${'a'.repeat(64)}/configmaps`, '400'],
    [`/api/v1/namespaces/default/configmaps/${'a'.repeat(253)}`, `ConfigMap default/${'a'.repeat(253)}`],
  ])('%s → %s', (path, expected) => {
    expect(outcome(path)).toBe(expected);
  });

  it.each([
    ['/api/v1/namespaces/%2e%2e/configmaps?x=1', '/api/v1/namespaces/%2e%2e/configmaps', 'x=1'],
    ['/api/v1/namespaces/../configmaps', '/api/v1/namespaces/../configmaps', ''],
    ['/a?b=%2f&c', '/a', 'b=%2F&c='],
  ])('the embedded server keeps %s raw', (target, path, query) => {
    const split = splitRequestTarget(target);
    expect(split.path).toBe(path);
    expect(split.query.toString()).toBe(query);
  });
});
