import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { lambdaTelemetry } from '../../shared/adapters/aws/powertools/lambda-telemetry.js';
import { requestFromHttpApiEvent } from '../api/aws-event.js';
import { lambdaStreaming } from './lambda-streaming.js';
import { serveAuthenticatedWatch } from './serve-watch.js';
import { watchWiring } from './wiring.js';
import { writeResponse } from './write-response.js';

const telemetry = lambdaTelemetry('capless-watch');
const { deps, authentication } = watchWiring(telemetry.logger);
const runtime = lambdaStreaming();

/**
 * The watch function (ADR 0080, 0125): a Lambda function URL with `InvokeMode: RESPONSE_STREAM`
 * and `AuthType: AWS_IAM`, streaming `?watch=true` on every list path from the watch log table.
 * IAM mode: the caller is the SigV4 signer the URL's event names. JWT mode: the function checks
 * the bearer token itself (the request came through the front door's origin access control).
 */
export const handler = runtime.streamifyResponse(async (event: APIGatewayProxyEventV2, responseStream) => {
  const response = await serveAuthenticatedWatch(event, requestFromHttpApiEvent(event), deps, authentication);
  await writeResponse(response, runtime.HttpResponseStream.from(responseStream, { statusCode: response.status, headers: response.headers }));
});
