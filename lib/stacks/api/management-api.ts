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
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

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

  /** The API's base URL (ends with `/`). */
  get url(): string {
    return this.stage.url;
  }
}
