/**
 * The configuration endpoint of the vendor's SDKs in roxy mode (issue 16): `GET /roxy/<environment key>` answers the
 * environment's configured flags and the application's target groups in the form the SDK reads
 * (roxy-configuration.ts). rox-node GETs exactly the URL it is given (rox-node@6.0.16: fetchRemoteConfigurationWithRoxy,
 * buildAPIURL(properties, endpoint)); the Go SDK GETs `device/request_configuration` resolved against it (rox-go
 * core/network BuildForRoxy: url.ResolveReference, which replaces the last segment unless the URL ends with "/"), so
 * the URL ends with "/" and that path is served too. No token: the SDK sends none (the environment key in the path
 * is the SDK key, as on the service's CDN).
 */
import type { FeatureManagementService } from "./feature-management";
import { decodeSegment, json, jsonError, type EmulatorRequest, type Reply } from "./http";
import { roxyPayload } from "./roxy-configuration";
import { roxyUnknownKey } from "./undocumented-behaviour";

export const ROXY_PREFIX = "/roxy/";

/** The URL to give the SDK as its `roxy` option for one environment (Node and Go SDKs alike: see above). */
export function roxyUrlOf(baseUrl: string, environmentKey: string): string {
  return `${baseUrl}${ROXY_PREFIX.slice(1)}${encodeURIComponent(environmentKey)}/`;
}

/** `subPath` is what follows ROXY_PREFIX. */
export function handleRoxyRequest(req: EmulatorRequest, subPath: string, service: FeatureManagementService): Reply {
  const m = /^([^/]+)(?:\/|\/device\/request_configuration\/?)?$/.exec(subPath);
  if (!m) return jsonError(404, "Not found: the SDK's configuration is at /roxy/<environment key>");
  if (req.method !== "GET") return json(405, { error: "Method not allowed: the SDK reads its configuration with GET" }, { allow: "GET" });
  return configurationOfKey(decodeSegment(m[1]!), service);
}

/**
 * The SDK's configuration of the environment of this key (its configured flags and the application's target
 * groups), signed now; unknown key: 404. Roxy mode and self-managed mode (self-managed.ts) answer the same payload.
 */
export function configurationOfKey(key: string, service: FeatureManagementService): Reply {
  const found = service.environmentOfKey(key);
  if (!found) return roxyUnknownKey(key);
  const { environment, model } = found;
  const flags = model.configuredFlags(environment.name).map(({ flag, configuration }) => ({
    name: flag.name,
    availableValues: flag.availableValues,
    configuration,
  }));
  return json(200, roxyPayload({ key: environment.key, flags, targetGroups: model.targetGroups() }, new Date()));
}
