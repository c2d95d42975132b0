import cf from 'cloudfront';

// The API front door's viewer-request function (CloudFront Functions, cloudfront-js-2.0; ADR 0125).
// A request whose query asks for a watch (`watch=true` or `watch=1`, as the API reads it) goes to
// the watch function URL's origin instead of the HTTP API, with the viewer's Authorization header
// copied to x-capless-authorization: origin access control signs the request to the function URL
// and so replaces Authorization. Every other request goes on to the API unchanged.

const WATCH_ORIGIN_ID = 'capless-watch';
const FORWARDED_AUTHORIZATION = 'x-capless-authorization';

function queryValues(parameter) {
  if (!parameter) return [];
  if (parameter.multiValue) return parameter.multiValue.map((entry) => entry.value);
  return [parameter.value];
}

function asksForWatch(querystring) {
  return queryValues(querystring.watch).some((value) => value === 'true' || value === '1');
}

// biome-ignore lint/correctness/noUnusedVariables: CloudFront calls `handler`, the function's entry point.
function handler(event) {
  const request = event.request;
  if (!asksForWatch(request.querystring)) return request;
  const authorization = request.headers.authorization;
  delete request.headers[FORWARDED_AUTHORIZATION];
  if (authorization) request.headers[FORWARDED_AUTHORIZATION] = { value: authorization.value };
  cf.selectRequestOriginById(WATCH_ORIGIN_ID);
  return request;
}
