import { fileURLToPath } from 'node:url';
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import {
  AllowedMethods,
  type BehaviorOptions,
  CachePolicy,
  Function as CloudFrontFunction,
  Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  FunctionUrlOriginAccessControl,
  HttpVersion,
  type IOrigin,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  Signing,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { FunctionUrlOrigin, HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Construct } from 'constructs';
import type { ManagementApi } from '../management-api.js';
import type { WatchEndpoint } from '../watch-endpoint.js';

/** The watch function URL's origin; the watch router selects it by this id. */
export const WATCH_ORIGIN_ID = 'capless-watch';
export const API_ORIGIN_ID = 'capless-api';
/** The viewer-request function's code (cloudfront-js-2.0), a file of its own so it can be run in tests. */
export const WATCH_ROUTER_CODE_PATH = fileURLToPath(new URL('./watch-router.cf.js', import.meta.url));
/**
 * CloudFront waits this long for the watch function's first bytes (the initial state is read
 * first) and, per its origin response timeout, between later ones; the function writes a blank
 * line every 10 s while a watch is quiet (WATCH_FUNCTION_HEARTBEAT_MS). 60 s is within the
 * default quota without an increase.
 */
export const WATCH_ORIGIN_READ_TIMEOUT = Duration.seconds(60);
/**
 * Only so the distribution carries the watch origin (CloudFront defines origins through
 * behaviours): requests under it reach the watch function, which serves watches on list paths
 * only, so this path answers 401 without a valid token, else 405 (not a watch) or 404 (no such path).
 */
export const WATCH_ORIGIN_PATH = '/.capless/watch-origin/*';

export interface ApiFrontDoorProps {
  readonly api: ManagementApi;
  readonly watches: WatchEndpoint;
}

/**
 * One host for the whole management API in JWT mode (ADR 0125): a CloudFront distribution whose
 * default behaviour forwards everything, uncached, to the HTTP API, and whose viewer-request
 * function sends `?watch=true` requests to the watch function URL instead, through origin access
 * control (CloudFront signs with SigV4; only this distribution may invoke the URL). kubectl's
 * `server` is this URL, with the same bearer token for lists, writes and watches.
 */
export class ApiFrontDoor extends Construct {
  readonly distribution: Distribution;
  readonly watchRouter: CloudFrontFunction;

  constructor(scope: Construct, id: string, props: ApiFrontDoorProps) {
    super(scope, id);
    this.watchRouter = new CloudFrontFunction(this, 'WatchRouter', {
      code: FunctionCode.fromFile({ filePath: WATCH_ROUTER_CODE_PATH }),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'capless: watch=true requests go to the watch function URL (ADR 0125)',
    });
    const { region, urlSuffix } = Stack.of(this);
    const apiOrigin = new HttpOrigin(`${props.api.httpApi.apiId}.execute-api.${region}.${urlSuffix}`, {
      originId: API_ORIGIN_ID,
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [OriginSslPolicy.TLS_V1_2],
    });
    const watchOrigin = FunctionUrlOrigin.withOriginAccessControl(props.watches.url, {
      originId: WATCH_ORIGIN_ID,
      readTimeout: WATCH_ORIGIN_READ_TIMEOUT,
      originAccessControl: new FunctionUrlOriginAccessControl(this, 'WatchAccess', {
        description: 'capless: CloudFront signs watch requests to the watch function URL',
        signing: Signing.SIGV4_ALWAYS,
      }),
    });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'capless management API front door (ADR 0125)',
      httpVersion: HttpVersion.HTTP2,
      defaultBehavior: this.behavior(apiOrigin, AllowedMethods.ALLOW_ALL),
      additionalBehaviors: { [WATCH_ORIGIN_PATH]: this.behavior(watchOrigin, AllowedMethods.ALLOW_GET_HEAD) },
    });
    this.acknowledgeReviewedRules();
  }

  /** The front door's base URL (no trailing slash): kubectl's `server` in JWT mode. */
  get url(): string {
    return `https://${this.distribution.distributionDomainName}`;
  }

  /** Nothing cached; every viewer header but Host (the origin's own) forwarded, Authorization included. */
  private behavior(origin: IOrigin, allowedMethods: AllowedMethods): BehaviorOptions {
    return {
      origin,
      allowedMethods,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      functionAssociations: [{ function: this.watchRouter, eventType: FunctionEventType.VIEWER_REQUEST }],
    };
  }

  private acknowledgeReviewedRules(): void {
    const reasons: Record<string, string> = {
      'AwsSolutions-CFR1': 'A management API for operators and controllers anywhere: no country is excluded by design; callers need a valid token from the configured issuer.',
      'AwsSolutions-CFR2':
        'Every request needs a JWT checked by API Gateway or the watch function; a web ACL would add a fixed monthly cost to a stack that costs nothing at rest. Attach one with Distribution escape hatches where policy asks for it.',
      'AwsSolutions-CFR3': 'Requests are logged where they are served: the HTTP API access log (every API call) and the watch function log (every watch); CloudFront standard logs would need a bucket and duplicate both.',
      'AwsSolutions-CFR4':
        'The distribution uses its default *.cloudfront.net certificate (no custom domain in this construct), for which CloudFront fixes the viewer TLS policy; origins are reached over TLS 1.2 only.',
    };
    for (const [id, reason] of Object.entries(reasons)) Validations.of(this.distribution).acknowledge({ id, reason });
  }
}
