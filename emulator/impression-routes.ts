/**
 * What the feature-flag service answers about the use of flags (issue 64), from the impressions the emulator
 * counts (impressions.ts), behind the API's token and its one request per second like every other endpoint:
 * - the legacy endpoint the vendor documents, `GET public-api/applications/{app}/environments/{env}/impressions`
 *   with `mode=daily`, `from` and `to` (Unix seconds) and `platforms=aggregatedOnly`, the environment by name. Its
 *   body is not public: each plausible form is a value of the reading `impressionsAnswer` (see impressionsBody);
 * - the newer platform's `GET v1/applications/{app}/environments/{environment id}/flags-status` (known from a
 *   third-party copy of its contract), `{flagsStatus: {<flag>: {flagName, status}}}`, only under the reading
 *   `flagsStatusEndpoint=served` (absent, 404, by default), with the statuses of provider/hygiene/flag-status.ts
 *   as of the emulator's clock over seven days.
 * Platforms are not told apart: every answer is the aggregate of all.
 */
import type { DailyImpressions } from "../provider/clients/impression-types";
import { dayStartMs, utcDay } from "../provider/clients/utc-days";
import { environmentFlagStatuses } from "../provider/hygiene/flag-status";
import type { ApplicationFlagsView } from "./feature-flags";
import { json, jsonError, type EmulatorRequest, type Reply } from "./http";
import type { ImpressionStore } from "./impressions";
import { reading } from "./readings";
import { fmNotFound, fmUnknownApplication, fmUnknownEnvironment } from "./undocumented-behaviour";

/** The longest span one request may ask for (no public source gives one): ten years. */
export const IMPRESSIONS_MAX_SPAN_DAYS = 3660;

/**
 * `rest` is the path after `public-api/applications/{app}/`; null when it is not the impressions endpoint. A GET
 * only (another method: 404, as the service's unknown routes); the reading `impressionsAnswer=absent` plays a
 * service without it (404).
 */
export function handleImpressionsRequest(req: EmulatorRequest, model: ApplicationFlagsView, rest: string[], store: ImpressionStore): Reply | null {
  if (rest.length !== 3 || rest[0] !== "environments" || rest[2] !== "impressions") return null;
  const form = reading("impressionsAnswer");
  if (req.method !== "GET" || form === "absent") return fmNotFound();
  const env = model.environment(rest[1]!);
  if (!env) return fmUnknownEnvironment(rest[1]!, model.applicationId);
  const window = readWindow(req.query);
  if (typeof window === "string") return jsonError(400, window);
  const counts = store.daily(model.applicationId, env.key, utcDay(window.from * 1000), utcDay(window.to * 1000));
  return json(200, impressionsBody(form, counts, window.from));
}

/** `segments` are the decoded path segments after the service's prefix, starting with `v1`. */
export function handleFlagsStatusRequest(req: EmulatorRequest, segments: string[], modelOf: (applicationId: string) => ApplicationFlagsView | undefined, store: ImpressionStore): Reply {
  const [, applications, id, environments, envId, what] = segments;
  const route = segments.length === 6 && applications === "applications" && environments === "environments" && what === "flags-status";
  if (!route || req.method !== "GET" || reading("flagsStatusEndpoint") === "absent") return fmNotFound();
  const model = modelOf(id!);
  if (!model) return fmUnknownApplication(id!);
  const env = model.environmentByKey(envId!);
  if (!env) return fmUnknownEnvironment(envId!, model.applicationId);
  const flags = model.flags().map((f) => ({ name: f.name, isPermanent: f.isPermanent }));
  const verdicts = environmentFlagStatuses(flags, { kind: "counts", counts: store.daily(model.applicationId, env.key) }, { asOf: store.now() });
  return json(200, { flagsStatus: Object.fromEntries(verdicts.map((v) => [v.flag, { flagName: v.flag, status: v.status }])) });
}

/** The forms of the answer (the reading impressionsAnswer's values but `absent`). */
export type ImpressionsBodyForm = "analytics" | "list-date" | "list-from";

/**
 * - `analytics`: the newer platform's form, one interval keyed by `from` (Unix seconds, as asked), one impression
 *   per day (`from` the day's start, ISO-8601) with a counter per value;
 * - `list-date`: `[{flag, value, count, date: "YYYY-MM-DD"}]`;
 * - `list-from`: `[{flag, value, count, from: <the day's start in Unix seconds>}]`.
 */
export function impressionsBody(form: ImpressionsBodyForm, counts: DailyImpressions[], fromSeconds: number): unknown {
  if (form === "list-date") return counts.map(({ flag, value, count, day }) => ({ flag, value, count, date: day }));
  if (form === "list-from") return counts.map(({ flag, value, count, day }) => ({ flag, value, count, from: dayStartMs(day) / 1000 }));
  const perFlag = new Map<string, Map<string, { value: string; counter: number }[]>>();
  for (const { flag, value, count, day } of counts) {
    let days = perFlag.get(flag);
    if (!days) perFlag.set(flag, (days = new Map()));
    let values = days.get(day);
    if (!values) days.set(day, (values = []));
    values.push({ value, counter: count });
  }
  const analytics = Object.fromEntries(
    [...perFlag].map(([flag, days]) => [
      flag,
      { interval: { [String(fromSeconds)]: { impressions: [...days].map(([day, aggregatedValues]) => ({ from: new Date(dayStartMs(day)).toISOString(), aggregatedValues })) } } },
    ]),
  );
  return { analytics };
}

/** `mode` (daily, the default), `from` and `to` (Unix seconds, from <= to), `platforms` (aggregatedOnly); else why not. */
function readWindow(query: Record<string, string>): { from: number; to: number } | string {
  if (query.mode !== undefined && query.mode !== "daily") return `mode: only "daily" is served, not ${JSON.stringify(query.mode)}`;
  if (query.platforms !== undefined && query.platforms !== "aggregatedOnly") return `platforms: only "aggregatedOnly" is served, not ${JSON.stringify(query.platforms)}`;
  const seconds = (name: "from" | "to"): number | string => {
    const text = query[name];
    if (text === undefined || !/^\d{1,12}$/.test(text)) return `${name}: required, a time in Unix seconds, not ${JSON.stringify(text ?? null)}`;
    return Number(text);
  };
  const from = seconds("from");
  const to = seconds("to");
  if (typeof from === "string") return from;
  if (typeof to === "string") return to;
  if (to < from) return `to (${to}) is before from (${from})`;
  if (to - from > IMPRESSIONS_MAX_SPAN_DAYS * 86_400) return `from..to spans more than ${IMPRESSIONS_MAX_SPAN_DAYS} days`;
  return { from, to };
}
