import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { GoneError, MethodNotAllowedError } from '../../shared/errors/index.js';
import type { Clock } from '../../shared/ports/clock.js';
import type { ChangeSource } from '../../shared/ports/object-store.js';
import type { WatchLog } from '../../shared/ports/watch-log.js';
import { isResourceVersion, nextResourceVersion } from '../../shared/store/resource-version.js';
import { ChangeLog } from '../../shared/watch/change-log.js';
import { changeOfRecord } from '../../shared/watch/watch-log-record.js';
import { type ApiDeps, handleApiRequest } from '../api/api.js';
import type { Authenticator } from '../api/auth.js';
import type { ApiRequest, ApiResponse, ResponseStream, StreamSink } from '../api/http.js';
import { parseResourcePath } from '../api/paths.js';
import { errorResponse } from '../api/status.js';
import { WatchHub, type WatchLimits } from '../api/watch/watch-hub.js';
import { isWatch } from '../api/watch/watch-options.js';
import type { WatchAuthentication } from './watch-authentication.js';

/** What the AWS watch function serves from, besides the API's own dependencies. */
export interface WatchFunctionDeps extends Omit<ApiDeps, 'watches'> {
  watchLog: WatchLog;
  clock: Clock;
  /** Between reads of the watch log while a watch is open. */
  pollIntervalMs: number;
  /** A watch that has sent nothing for this long sends a blank line (keeps CloudFront's origin read timeout from firing). */
  heartbeatMs: number;
  /** Positions older than this are gone (the watch log's retention). */
  retentionSeconds: number;
  /** Watch limits; the longest watch must end before the function's own timeout. */
  limits: Partial<WatchLimits> & { maxTimeoutSeconds: number };
}

const PAGE = 500;
const NOTHING: ChangeSource = { onChange: () => () => {} };

/**
 * Authenticates the caller, then serves the watch: a caller who cannot be authenticated gets the
 * Status (401, or 503 when the token issuer's keys cannot be fetched), never a watch.
 */
export async function serveAuthenticatedWatch(
  event: APIGatewayProxyEventV2,
  request: ApiRequest,
  deps: Omit<WatchFunctionDeps, 'authenticate'>,
  authentication: WatchAuthentication,
): Promise<ApiResponse> {
  let authenticate: Authenticator;
  try {
    authenticate = await authentication(event, request);
  } catch (error) {
    return errorResponse(error);
  }
  return serveWatch(request, { ...deps, authenticate });
}

/**
 * One watch request on AWS (ADR 0080): the same API handler as everywhere, given a change log
 * that starts at the request's resourceVersion and is fed by reading the watch log table —
 * first what was recorded after that position, then every `pollIntervalMs` until the watch ends.
 * Returns the response; a streamed one polls while it is being written.
 */
export async function serveWatch(request: ApiRequest, deps: WatchFunctionDeps): Promise<ApiResponse> {
  try {
    return await watchResponse(request, deps);
  } catch (error) {
    return errorResponse(error);
  }
}

async function watchResponse(request: ApiRequest, deps: WatchFunctionDeps): Promise<ApiResponse> {
  if (!isWatch(request.query)) {
    return errorResponse(new MethodNotAllowedError('this endpoint serves watches only (watch=true); everything else goes to the API'));
  }
  const path = parseResourcePath(request.path, deps.kinds);
  const requested = request.query.get('resourceVersion') ?? '';
  const now = deps.clock.now();
  const resumes = isResourceVersion(requested) && requested !== '0';
  if (path && resumes && Number(requested) < (now.getTime() - deps.retentionSeconds * 1000) * 1000) {
    return errorResponse(new GoneError(`too old resource version: ${requested} (the watch log keeps ${deps.retentionSeconds} s)`));
  }
  const log = new ChangeLog(NOTHING, { origin: resumes ? requested : nextResourceVersion(now), maxEntries: 100_000 });
  const kind = path ? { group: path.info.group, kind: path.info.kind } : undefined;
  const catchUp = async (): Promise<void> => {
    if (!kind) return;
    for (;;) {
      const records = await deps.watchLog.since(kind, log.head(), PAGE);
      log.appendRecorded(records.map(changeOfRecord));
      if (records.length < PAGE) return;
    }
  };
  await catchUp();
  const hub = new WatchHub(log, deps.limits);
  const response = await handleApiRequest(request, { ...deps, watches: hub });
  if (!response.stream) {
    hub.close();
    log.close();
    return response;
  }
  return { ...response, stream: new PollingStream(response.stream, hub, catchUp, deps) };
}

/** Sent when a watch has been quiet for a heartbeat: whitespace between events, which every watch client skips. */
export const HEARTBEAT = '\n';

/**
 * The hub's stream, with the watch log read every poll interval while it is open, and a blank
 * line written when nothing else was for a heartbeat interval (unless the client is not reading).
 */
class PollingStream implements ResponseStream {
  private timers: NodeJS.Timeout[] = [];
  private polling = false;
  private wroteSinceBeat = false;
  private blocked = false;

  constructor(
    private readonly inner: ResponseStream,
    private readonly hub: WatchHub,
    private readonly catchUp: () => Promise<void>,
    private readonly intervals: Pick<WatchFunctionDeps, 'pollIntervalMs' | 'heartbeatMs'>,
  ) {}

  start(sink: StreamSink): void {
    const write = (chunk: string): boolean => {
      this.wroteSinceBeat = true;
      this.blocked = !sink.write(chunk);
      return !this.blocked;
    };
    this.inner.start({
      write,
      end: () => {
        this.stop();
        sink.end();
      },
    });
    if (this.hub.openWatches() === 0) return;
    this.timers = [
      setInterval(() => void this.poll(), this.intervals.pollIntervalMs),
      setInterval(() => {
        if (!this.wroteSinceBeat && !this.blocked) write(HEARTBEAT);
        this.wroteSinceBeat = false;
      }, this.intervals.heartbeatMs),
    ];
  }

  drained(): void {
    this.blocked = false;
    this.inner.drained();
  }

  cancel(): void {
    this.inner.cancel();
    this.stop();
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      await this.catchUp();
    } catch {
      // A failed read is retried at the next interval; the client sees a delay, not an error.
    } finally {
      this.polling = false;
    }
  }

  private stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.hub.close();
    this.hub.log.close();
  }
}
