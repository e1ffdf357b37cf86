import { CloudBeesError, InvalidInputError, NotFoundError, RequestRejectedError, ServerError } from "../http/errors";
import type { HttpClient, RequestSpec } from "../http/http-client";
import { flagsStatusAnswerSchema } from "./impression-schemas";
import type { FlagsStatusRead, ImpressionsWindow } from "./impression-types";
import { requireDate, requireSegment } from "./inputs";
import type { WarningSink } from "./readable-items";

/**
 * The feature-flag service's answers about the use of flags (issue 64), for FeatureManagementClient: the legacy
 * impressions endpoint the vendor documents (`GET /public-api/applications/{app}/environments/{env}/impressions`,
 * `mode=daily`, `from` and `to` in Unix seconds, `platforms=aggregatedOnly`, the environment by name), and the newer
 * platform's `GET /v1/applications/{app}/environments/{environment id}/flags-status`, known only from a third-party
 * copy of its contract: detected, never needed (../../../shared/notes/flag-hygiene.md).
 */

/** The longest span one impressions request asks for: a year and a month (the status needs a week and some history). */
export const MAX_IMPRESSIONS_WINDOW_DAYS = 400;
/** The largest impressions answer read: 200,000 entries of a few hundred bytes. */
export const MAX_IMPRESSIONS_BYTES = 64 * 1024 * 1024;
/** The answers that say a service has no flags-status endpoint (rather than failing to answer it). */
const UNSUPPORTED_STATUSES = new Set([404, 405, 410, 501]);

const NO_IMPRESSIONS =
  "No application has this id in the token's account, or it has no environment of this name, or the service does not answer impressions there.";

/** The impressions request of one environment (by name) over `window`; a window that cannot be asked for throws. */
export function impressionsRequest(applicationId: string, environment: string, window: ImpressionsWindow): RequestSpec {
  const operation = `reading the impressions of application "${applicationId}" in environment "${environment}"`;
  const from = requireDate(window?.from, "from", operation);
  const to = requireDate(window?.to, "to", operation);
  if (to.getTime() < from.getTime()) throw new InvalidInputError("to", `${to.toISOString()} is before from (${from.toISOString()})`, operation);
  if (to.getTime() - from.getTime() > MAX_IMPRESSIONS_WINDOW_DAYS * 86_400_000) {
    throw new InvalidInputError("to", `the window from ${from.toISOString()} spans more than ${MAX_IMPRESSIONS_WINDOW_DAYS} days: ask for less`, operation);
  }
  return {
    operation,
    method: "GET",
    path: `public-api/applications/${segment(applicationId, "applicationId", operation)}/environments/${segment(environment, "environment", operation)}/impressions`,
    query: { mode: "daily", from: String(Math.floor(from.getTime() / 1000)), to: String(Math.floor(to.getTime() / 1000)), platforms: "aggregatedOnly" },
    idempotency: "safe",
    notFoundHint: NO_IMPRESSIONS,
    maxResponseBytes: MAX_IMPRESSIONS_BYTES,
  };
}

/**
 * The newer service's statuses of one environment (by its id, the SDK key), or undefined where the service has no
 * such endpoint (404, 405, 410, 501). Never fails: any other failure (the rate limit, a server error, an answer it
 * cannot read) is said through `sink` and answered undefined, so that the statuses are computed from the impressions.
 */
export async function readFlagsStatusWith(http: HttpClient, applicationId: string, environmentId: string, sink?: WarningSink): Promise<FlagsStatusRead | undefined> {
  const operation = `reading the flag statuses of application "${applicationId}" in environment "${environmentId}"`;
  try {
    const spec: RequestSpec = {
      operation,
      method: "GET",
      path: `v1/applications/${segment(applicationId, "applicationId", operation)}/environments/${segment(environmentId, "environmentId", operation)}/flags-status`,
      idempotency: "safe",
      maxResponseBytes: MAX_IMPRESSIONS_BYTES,
    };
    return await http.json(spec, flagsStatusAnswerSchema);
  } catch (e) {
    if (!(e instanceof CloudBeesError)) throw e;
    const unsupported = (e instanceof NotFoundError || e instanceof RequestRejectedError || e instanceof ServerError) && UNSUPPORTED_STATUSES.has(e.status ?? 0);
    if (!unsupported) sink?.warn(`${e.message} The statuses are computed from the impressions instead.`);
    return undefined;
  }
}

/** One path segment: an id or a name, checked (no ".", "..", separator or control character) and URL-encoded. */
function segment(value: unknown, input: string, operation: string): string {
  return encodeURIComponent(requireSegment(value, input, operation));
}
