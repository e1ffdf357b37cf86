/**
 * The vendor's SDK in self-managed mode (issue 64): `Rox.setup(key, {selfManaged: {serverURL, analyticsURL}})` with
 * both URLs `emulator.selfManaged` gives, so that the real rox-node, unmodified, fetches its configuration here and
 * posts its impressions here, which the emulator counts (impressions.ts). What the SDK sends, read from
 * `rox-node@6.0.16` `dist/rox-node.js` (cited as "rox-node: <function>") and `rollout/rox-go` v6 ("rox-go: <file>"):
 * - the configuration: `POST {serverURL}/device/get_configuration/{appKey}/{buid}` with the device properties, and
 *   no CDN step (SELFMANAGEDMODE_CONFIGURATION leaves CD_S3_ENDPOINT unset; fetchRemoteConfiguration); the answer
 *   must be 200 with a JSON object (processApiResponse), the payload roxy mode reads (roxy-configuration.ts), whose
 *   `application` must be the key (ConfigurationParser.parse validates it outside roxy mode); the signature is not
 *   checked in self-managed mode (ConfigurationFetcher.verifyPayload), so the emulator signs nothing;
 * - the state (the flags and properties the application registered): `POST
 *   {serverURL}/device/update_state_store/{appKey}/{md5}` with `{platform, feature_flags, custom_properties,
 *   devModeSecret}`, which must answer exactly 200 (setStateToAPI): answered `{}`, nothing kept;
 * - impressions: `POST {analyticsURL}/impression/{appKey}` with `{analyticsVersion: "1.0.0", sdkVersion, time,
 *   platform, rolloutKey, events: [{flag, value, distinctId, type: "IMPRESSION", time}]}` (rox-node: Analytics.flush;
 *   each event from invokeImpression); rox-go sends no `distinctId`, may leave `type` out and may send `count`
 *   (rox-go: core/model/analytics.go, "telegraf-input-impressions will default to 'IMPRESSION' ... to 1"). rox-node
 *   posts the first impression at once, then every 20 events or 10 s (Analytics.enqueue: flushAt, flushInterval);
 *   a failed post is dropped. Nothing is sent in roxy mode (Client.setup creates no Analytics with roxyUrl), with the
 *   network disabled, for overridden, frozen or peeked evaluations (DynamicApi.genericValue, RoxFlagNode.isEnabled,
 *   flagValue), or unless `rox.internal.analytics` is true, which self-managed mode fixes (InternalFlags
 *   setDefaultsMode(true): DEFAULTS).
 * An event counts on the UTC day of its own `time` (the SDK's clock), else of the batch's, else of the emulator's
 * now. The SDK key names the environment, hence the application. No token: the SDK sends none.
 */
import type { FeatureManagementService } from "./feature-management";
import { decodeSegment, json, jsonError, type EmulatorRequest, type Reply } from "./http";
import { IMPRESSION_LIMITS, type ImpressionStore } from "./impressions";
import { configurationOfKey } from "./roxy-endpoint";
import { roxyUnknownKey } from "./undocumented-behaviour";
import { utcDay } from "../provider/clients/utc-days";

export const SELF_MANAGED_PREFIX = "/self-managed/";

/** The `selfManaged` option of the SDK for this emulator: every environment's, the key telling them apart. */
export interface SelfManagedUrls {
  serverURL: string;
  analyticsURL: string;
}

/** The SDK appends its paths to both URLs (`${serverURL}/device/...`, `${analyticsURL}/impression/...`): no final `/`. */
export function selfManagedUrlsOf(baseUrl: string): SelfManagedUrls {
  const url = `${baseUrl}${SELF_MANAGED_PREFIX.slice(1, -1)}`;
  return { serverURL: url, analyticsURL: url };
}

const ROUTE = /^(device\/get_configuration|device\/update_state_store|impression)\/([^/]+)(?:\/[^/]+)?\/?$/;

/** `subPath` is what follows SELF_MANAGED_PREFIX. */
export function handleSelfManagedRequest(req: EmulatorRequest, subPath: string, service: FeatureManagementService): Reply {
  const m = ROUTE.exec(subPath);
  if (!m) return jsonError(404, "Not found: the SDK's self-managed endpoints are device/get_configuration/<key>/<buid>, device/update_state_store/<key>/<md5> and impression/<key>");
  if (req.method !== "POST") return json(405, { error: "Method not allowed: the SDK POSTs to its self-managed endpoints" }, { allow: "POST" });
  const key = decodeSegment(m[2]!);
  if (m[1] === "device/get_configuration") return configurationOfKey(key, service);
  const found = service.environmentOfKey(key);
  if (!found) return roxyUnknownKey(key);
  if (m[1] === "device/update_state_store") return json(200, {});
  return countBatch(req.body, found.applicationId, found.environment.key, service.impressions);
}

interface ImpressionEvent {
  flag: string;
  value: string;
  count: number;
  time?: number;
}

/** One batch: each readable impression counted, the others skipped (a post the SDK drops on failure loses nothing readable). */
function countBatch(body: Buffer, applicationId: string, environmentKey: string, store: ImpressionStore): Reply {
  let batch: unknown;
  try {
    batch = JSON.parse(body.toString("utf8"));
  } catch {
    return jsonError(400, "The body is not JSON: an impression batch is {analyticsVersion, sdkVersion, time, platform, rolloutKey, events: [...]}");
  }
  const events = isObject(batch) ? batch.events : undefined;
  if (!Array.isArray(events)) return jsonError(400, "events: a list of impressions is required");
  if (events.length > IMPRESSION_LIMITS.eventsPerBatch) return jsonError(413, `events: at most ${IMPRESSION_LIMITS.eventsPerBatch} per batch`);
  const batchTime = timeOf((batch as Record<string, unknown>).time);
  let accepted = 0;
  let skipped = 0;
  for (const raw of events) {
    const event = readEvent(raw);
    const counted = event !== undefined && store.add(applicationId, environmentKey, event.flag, event.value, utcDay(event.time ?? batchTime ?? store.now().getTime()), event.count);
    if (counted) accepted += 1;
    else skipped += 1;
  }
  return json(200, { accepted, skipped });
}

/** An impression event, or undefined: another type, no flag, no value, or text beyond the bounds. */
function readEvent(raw: unknown): ImpressionEvent | undefined {
  if (!isObject(raw)) return undefined;
  if (raw.type !== undefined && raw.type !== "" && raw.type !== "IMPRESSION") return undefined;
  const { flag, value, count } = raw;
  if (typeof flag !== "string" || flag === "" || flag.length > IMPRESSION_LIMITS.textLength) return undefined;
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") return undefined;
  const text = String(value);
  if (text.length > IMPRESSION_LIMITS.textLength) return undefined;
  // rox-go: "will default to 1 if not set / zero".
  if (count !== undefined && count !== 0 && !(Number.isInteger(count) && (count as number) > 0)) return undefined;
  const time = timeOf(raw.time);
  return { flag, value: text, count: typeof count === "number" && count > 0 ? count : 1, ...(time === undefined ? {} : { time }) };
}

/** Milliseconds since 1970 (rox-node: `new Date().getTime()`; rox-go: UnixMilli), when the value is one. */
function timeOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 && value < 253_402_300_800_000 ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
