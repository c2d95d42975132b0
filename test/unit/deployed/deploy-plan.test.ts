import { describe, expect, it } from 'vitest';
import { asTemplate, describeRemovals, planForMoto, type Template, unsupportedTypes } from '../../aws-wire/deployed/deploy-plan.js';
import { referencesIn } from '../../aws-wire/deployed/template-refs.js';

const SUPPORTED = new Set(['AWS::SQS::Queue', 'AWS::Lambda::Function', 'AWS::Lambda::Permission', 'AWS::IAM::Role', 'AWS::CloudWatch::Dashboard']);

const template: Template = asTemplate(
  {
    Resources: {
      Queue: { Type: 'AWS::SQS::Queue' },
      QueuePolicy: { Type: 'AWS::SQS::QueuePolicy', Properties: { Queues: [{ Ref: 'Queue' }] } },
      Role: { Type: 'AWS::IAM::Role' },
      Fn: { Type: 'AWS::Lambda::Function', Properties: { Role: { 'Fn::GetAtt': ['Role', 'Arn'] } }, DependsOn: ['Role', 'QueuePolicy'] },
      Api: { Type: 'AWS::ApiGatewayV2::Api' },
      Permission: {
        Type: 'AWS::Lambda::Permission',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation's Fn::Sub syntax, not a template literal
        Properties: { FunctionName: { 'Fn::GetAtt': ['Fn', 'Arn'] }, SourceArn: { 'Fn::Sub': 'arn:${AWS::Partition}:execute-api:${AWS::Region}:${Api}/*' } },
      },
      Alarm: { Type: 'AWS::CloudWatch::Alarm' },
      Dashboard: { Type: 'AWS::CloudWatch::Dashboard', Properties: { DashboardBody: { 'Fn::Join': ['', ['{"alarm":"', { 'Fn::GetAtt': ['Alarm', 'Arn'] }, '"}']] } } },
    },
    Outputs: {
      QueueUrl: { Value: { Ref: 'Queue' } },
      ApiUrl: { Value: { 'Fn::Join': ['', ['https://', { Ref: 'Api' }]] } },
    },
  },
  'fixture',
);

describe('planForMoto', () => {
  const plan = planForMoto(template, SUPPORTED);

  it.each([
    ['QueuePolicy', 'moto has no CloudFormation model for AWS::SQS::QueuePolicy'],
    ['Api', 'moto has no CloudFormation model for AWS::ApiGatewayV2::Api'],
    ['Alarm', 'moto has no CloudFormation model for AWS::CloudWatch::Alarm'],
    ['Permission', 'refers to Api (removed)'],
    ['Dashboard', 'refers to Alarm (removed)'],
  ])('removes %s: %s', (logicalId, reason) => {
    expect(plan.removed.find((r) => r.logicalId === logicalId)?.reason).toBe(reason);
    expect(plan.template.Resources[logicalId]).toBeUndefined();
  });

  it('keeps what moto can create and prunes DependsOn on removed resources', () => {
    expect(Object.keys(plan.template.Resources).sort()).toEqual(['Fn', 'Queue', 'Role']);
    expect(plan.template.Resources.Fn?.DependsOn).toEqual(['Role']);
  });

  it('leaves out outputs that refer to removed resources, and says so', () => {
    expect(Object.keys(plan.template.Outputs ?? {})).toEqual(['QueueUrl']);
    expect(plan.removedOutputs).toEqual(['ApiUrl']);
  });

  it('lists the unsupported types once each, sorted, and prints every removal', () => {
    expect(unsupportedTypes(plan)).toEqual(['AWS::ApiGatewayV2::Api', 'AWS::CloudWatch::Alarm', 'AWS::SQS::QueuePolicy']);
    const text = describeRemovals(plan);
    for (const id of ['QueuePolicy', 'Api', 'Alarm', 'Permission', 'Dashboard', 'ApiUrl']) expect(text).toContain(id);
  });

  it('removes nothing when moto knows every type', () => {
    const all = new Set(Object.values(template.Resources).map((r) => r.Type));
    expect(planForMoto(template, all).removed).toEqual([]);
  });
});

describe('referencesIn', () => {
  it.each([
    [{ Ref: 'A' }, ['A']],
    [{ Ref: 'AWS::Region' }, []],
    [{ 'Fn::GetAtt': ['B', 'Arn'] }, ['B']],
    [{ 'Fn::GetAtt': 'C.Arn' }, ['C']],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation's Fn::Sub syntax, not a template literal
    [{ 'Fn::Sub': 'x-${D}-${E.Arn}-${AWS::AccountId}-${!Literal}' }, ['D', 'E']],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation's Fn::Sub syntax, not a template literal
    [{ 'Fn::Sub': ['${Own}-${F}', { Own: { Ref: 'G' } }] }, ['F', 'G']],
    [{ 'Fn::Join': ['', [{ Ref: 'H' }, 'x']] }, ['H']],
    ['plain', []],
  ])('%j refers to %j', (value, expected) => {
    expect(referencesIn(value)).toEqual(expected);
  });
});

describe('asTemplate', () => {
  it.each([
    [{}, 'Resources'],
    [{ Resources: { X: { Properties: {} } } }, 'Resources.X.Type'],
    [[], '(root)'],
  ])('refuses %j, naming %s', (value, field) => {
    expect(() => asTemplate(value, 't.json')).toThrow(field);
  });
});
