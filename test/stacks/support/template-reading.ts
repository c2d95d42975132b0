import type { Template } from 'aws-cdk-lib/assertions';
import { isRecord, type JsonRecord, recordAt, stringAt, valueAt } from '../../../shared/contracts/json.js';

/** One IAM policy statement as synthesized (actions and resources normalized to arrays). */
export interface Statement {
  readonly effect: string;
  readonly actions: string[];
  readonly resources: unknown[];
  readonly condition: JsonRecord | undefined;
}

/** A function in the template with every statement of every policy attached to its role. */
export interface FunctionPolicy {
  readonly logicalId: string;
  readonly serviceName: string;
  readonly environment: JsonRecord;
  readonly statements: Statement[];
}

function asArray(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function statementsOf(document: unknown): Statement[] {
  return asArray(valueAt(document, 'Statement')).filter(isRecord).map((s) => ({
    effect: stringAt(s, 'Effect') ?? '',
    actions: asArray(s.Action).filter((a): a is string => typeof a === 'string'),
    resources: asArray(s.Resource),
    condition: recordAt(s, 'Condition'),
  }));
}

/** Every statement of every AWS::IAM::Policy, with the roles (logical IDs) the policy is attached to. */
export function allPolicies(template: Template): { roles: string[]; statements: Statement[] }[] {
  return Object.values(template.findResources('AWS::IAM::Policy')).map((policy) => ({
    roles: asArray(valueAt(policy, 'Properties', 'Roles'))
      .map((role) => stringAt(role, 'Ref'))
      .filter((role): role is string => role !== undefined),
    statements: statementsOf(valueAt(policy, 'Properties', 'PolicyDocument')),
  }));
}

/** Each Lambda function with its Powertools service name, environment and IAM statements. */
export function functionPolicies(template: Template): FunctionPolicy[] {
  const policies = allPolicies(template);
  return Object.entries(template.findResources('AWS::Lambda::Function')).map(([logicalId, fn]) => {
    const role = referencedId(valueAt(fn, 'Properties', 'Role'));
    const environment = recordAt(fn, 'Properties', 'Environment', 'Variables') ?? {};
    return {
      logicalId,
      serviceName: stringAt(environment, 'POWERTOOLS_SERVICE_NAME') ?? '',
      environment,
      statements: policies.filter((p) => role !== undefined && p.roles.includes(role)).flatMap((p) => p.statements),
    };
  });
}

/** The logical ID a `{ "Fn::GetAtt": [id, attr] }` or `{ "Ref": id }` points at. */
export function referencedId(value: unknown): string | undefined {
  const ref = stringAt(value, 'Ref');
  if (ref !== undefined) return ref;
  const getAtt = valueAt(value, 'Fn::GetAtt');
  return Array.isArray(getAtt) && typeof getAtt[0] === 'string' ? getAtt[0] : undefined;
}

/** Logical IDs of the resources of one type. */
export function logicalIds(template: Template, type: string): string[] {
  return Object.keys(template.findResources(type)).sort();
}
