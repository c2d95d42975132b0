import { Template } from 'aws-cdk-lib/assertions';
import { AccountRootPrincipal, Role } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { ALL_SECRET_ROUTES, SECRET_ROUTES, type SecretRoute } from '../../lib/stacks/api/secret-routes.js';
import { isRecord } from '../../shared/contracts/json.js';
import { CaplessStack } from '../../lib/stacks/capless-stack.js';
import { testApp } from './support/synth-stack.js';

/** IAM's ARN matching: `*` matches any run of characters (slashes included), `?` one. */
function iamMatches(pattern: string, arn: string): boolean {
  const regex = new RegExp(`^${pattern.split('*').map((part) => part.split('?').map(escapeRegex).join('.')).join('.*')}$`);
  return regex.test(arn);
}
const escapeRegex = (text: string) => text.replace(/[.+^${}()|[\]\\]/g, '\\$&');

const API = 'arn:aws:execute-api:us-east-1:111111111111:abc123';
const patternOf = (route: SecretRoute) => `${API}/*/${route.method}${route.path}`;
const request = (method: string, path: string) => `${API}/$default/${method}${path}`;

const allowedByObjectAccess = (arn: string) => !ALL_SECRET_ROUTES.some((route) => iamMatches(patternOf(route), arn));
const allowedBy = (routes: readonly SecretRoute[], arn: string) => routes.some((route) => iamMatches(patternOf(route), arn));

const NAMED_SECRET = '/api/v1/namespaces/default/secrets/s1';
const SECRETS = '/api/v1/namespaces/default/secrets';

describe('IAM grants of the management API keep every Secret verb apart', () => {
  it.each([
    ['GET', NAMED_SECRET, false, true, false],
    ['PUT', NAMED_SECRET, false, false, true],
    ['PATCH', NAMED_SECRET, false, false, true],
    ['DELETE', NAMED_SECRET, false, false, true],
    ['POST', SECRETS, false, false, true],
    ['GET', SECRETS, true, false, false],
    ['GET', '/api/v1/secrets', true, false, false],
    ['PATCH', '/api/v1/namespaces/default/configmaps/c', true, false, false],
    ['GET', '/apis/cluster.x-k8s.io/v1beta2/namespaces/default/clusters/a', true, false, false],
  ])('%s %s: object access %s, secrets read %s, secrets write %s', (method, path, objects, read, write) => {
    const arn = request(method, path);
    expect(allowedByObjectAccess(arn)).toBe(objects);
    expect(allowedBy(SECRET_ROUTES.read, arn)).toBe(read);
    expect(allowedBy(SECRET_ROUTES.write, arn)).toBe(write);
  });

  it('the grant methods write those routes into the grantee policy', () => {
    const stack = new CaplessStack(testApp(), 'CaplessGrants');
    const operator = new Role(stack, 'Operator', { assumedBy: new AccountRootPrincipal() });
    const admin = new Role(stack, 'Admin', { assumedBy: new AccountRootPrincipal() });
    stack.controlPlane.api.grantObjectAccess(operator);
    stack.controlPlane.api.grantObjectAccess(admin);
    stack.controlPlane.api.grantSecretsRead(admin);
    stack.controlPlane.api.grantSecretsWrite(admin);
    const policies = Object.values(Template.fromStack(stack).findResources('AWS::IAM::Policy')).filter((p) => /Operator|Admin/.test(JSON.stringify(p.Properties?.Roles)));
    const statements = policies.flatMap((p) => {
      const document: unknown = p.Properties?.PolicyDocument;
      return isRecord(document) && Array.isArray(document.Statement) ? document.Statement : [];
    });
    const text = JSON.stringify(statements);
    expect(statements.filter((s) => isRecord(s) && Array.isArray(s.NotResource) && s.NotResource.length === ALL_SECRET_ROUTES.length)).toHaveLength(2);
    for (const route of ALL_SECRET_ROUTES) expect(text).toContain(`/${route.method}${route.path}`);
  });
});
