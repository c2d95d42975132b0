import { CfnOutput, Duration, Validations } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpMethod, HttpNoneAuthorizer, PayloadFormatVersion } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { CaplessFunction } from '../functions/capless-function.js';
import { ENV } from '../functions/entry-points.js';

export interface HostedExtensionsProps {
  /** The management API's HTTP API: the hooks get their own route on it. */
  readonly httpApi: HttpApi;
  readonly logRetention: RetentionDays;
}

/** The route prefix of hosted Runtime Extensions (functions/hooks/hosted-extensions.ts). */
export const HOOKS_ROUTE = '/hooks/{proxy+}';

/**
 * capless's hosted Runtime Extensions (functions/hooks) as their own function behind the HTTP
 * API: `POST /hooks/{proxy+}`, authenticated by TLS (API Gateway's certificate) plus a path
 * secret generated in Secrets Manager (ADR 0100). The route has no API Gateway authorizer on
 * purpose: Cluster API's runtime client sends neither SigV4 nor a bearer token.
 */
export class HostedExtensions extends Construct {
  readonly function: CaplessFunction;
  readonly pathSecret: Secret;

  constructor(scope: Construct, id: string, props: HostedExtensionsProps) {
    super(scope, id);
    this.pathSecret = new Secret(this, 'PathSecret', {
      description: 'capless hosted Runtime Extensions: the credential in their URLs (/hooks/<secret>/<extension>)',
      generateSecretString: { passwordLength: 48, excludePunctuation: true, includeSpace: false },
    });
    Validations.of(this.pathSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'The path secret is part of every registered ExtensionConfig URL; rotating it is a deliberate redeploy plus re-registration, not an automatic rotation that would break hook calls.',
    });
    this.function = new CaplessFunction(this, 'Function', {
      entry: 'hooks',
      serviceName: 'capless-hooks',
      description: 'capless hosted Runtime Extensions (Cluster API Runtime SDK)',
      // Cluster API's handler timeout is at most 30 s; API Gateway's integration limit is 29 s.
      timeout: Duration.seconds(29),
      logRetention: props.logRetention,
      environment: { [ENV.hooksPathSecretArn]: this.pathSecret.secretArn },
    });
    this.pathSecret.grantRead(this.function.function);
    const routes = props.httpApi.addRoutes({
      path: HOOKS_ROUTE,
      methods: [HttpMethod.POST],
      integration: new HttpLambdaIntegration('HooksIntegration', this.function.function, { payloadFormatVersion: PayloadFormatVersion.VERSION_2_0 }),
      authorizer: new HttpNoneAuthorizer(),
    });
    for (const route of routes) {
      Validations.of(route).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason: "Cluster API's runtime client cannot sign requests or send tokens; the hosted extensions check the path secret from Secrets Manager in the function before any extension runs (ADR 0100).",
      });
    }
    new CfnOutput(this, 'PathSecretArn', { value: this.pathSecret.secretArn, description: 'Secret whose value goes into hosted extension URLs: <api>/hooks/<value>/<extension>' });
  }
}
