import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  HttpApi,
  HttpMethod,
  type HttpStage,
  type IHttpRouteAuthorizer,
  LogGroupLogDestination,
  PayloadFormatVersion,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpIamAuthorizer, HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Effect, Grant, type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { ALL_SECRET_ROUTES, SECRET_ROUTES, type SecretRoute } from './secret-routes.js';

/** How callers of the management API authenticate. Never anonymous. */
export type ApiAuth =
  /** AWS SigV4 (IAM): callers need `execute-api:Invoke` on the API. */
  | { readonly mode: 'iam' }
  /** A JWT from an OIDC issuer (for example Cognito or an enterprise IdP). */
  | { readonly mode: 'jwt'; readonly issuer: string; readonly audience: readonly string[] };

export interface ManagementApiProps {
  readonly handler: IFunction;
  readonly auth: ApiAuth;
  readonly logRetention: RetentionDays;
}

/** HTTP API access-log fields: all of them exist for HTTP APIs (payload 2.0). */
const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTime',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  integrationError: '$context.integrationErrorMessage',
  authorizerError: '$context.authorizer.error',
};

function authorizerFor(auth: ApiAuth): IHttpRouteAuthorizer {
  if (auth.mode === 'iam') return new HttpIamAuthorizer();
  return new HttpJwtAuthorizer('JwtAuthorizer', auth.issuer, { jwtAudience: [...auth.audience] });
}

/**
 * The Kubernetes-style management API: an HTTP API (payload format 2.0) whose every route (`/`
 * and `/{proxy+}`, any method) goes to the API function through the chosen authorizer, with
 * access logs.
 */
export class ManagementApi extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  readonly accessLogs: LogGroup;

  constructor(scope: Construct, id: string, props: ManagementApiProps) {
    super(scope, id);
    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'capless management API',
      createDefaultStage: false,
      defaultAuthorizer: authorizerFor(props.auth),
    });
    this.accessLogs = new LogGroup(this, 'AccessLogs', { retention: props.logRetention });
    this.stage = this.httpApi.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });
    const integration = new HttpLambdaIntegration('ApiIntegration', props.handler, {
      payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
    });
    for (const path of ['/', '/{proxy+}']) {
      this.httpApi.addRoutes({ path, methods: [HttpMethod.ANY], integration });
    }
  }

  /**
   * IAM mode: lets `grantee` call every route of the API except the Secret routes (Secret lists,
   * which carry no data, stay allowed). An explicit allow with `NotResource`, so granting
   * `grantSecretsRead`/`grantSecretsWrite` as well adds to it instead of being denied.
   */
  grantObjectAccess(grantee: IGrantable): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['execute-api:Invoke'],
        notResources: ALL_SECRET_ROUTES.map((route) => this.routeArn(route)),
      }),
    );
  }

  /** IAM mode: reading one Secret (`GET …/secrets/NAME`, what `capless get kubeconfig` does). */
  grantSecretsRead(grantee: IGrantable): Grant {
    return this.grantRoutes(grantee, SECRET_ROUTES.read);
  }

  /** IAM mode: creating, replacing, patching and deleting Secrets (responses carry the object: pair it with read). */
  grantSecretsWrite(grantee: IGrantable): Grant {
    return this.grantRoutes(grantee, SECRET_ROUTES.write);
  }

  private grantRoutes(grantee: IGrantable, routes: readonly SecretRoute[]): Grant {
    return Grant.addToPrincipal({ grantee, actions: ['execute-api:Invoke'], resourceArns: routes.map((route) => this.routeArn(route)) });
  }

  private routeArn(route: SecretRoute): string {
    return this.httpApi.arnForExecuteApi(route.method, route.path, '*');
  }

  /** The API's base URL (ends with `/`). */
  get url(): string {
    return this.stage.url;
  }
}
