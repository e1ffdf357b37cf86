/**
 * `startEmulator({ unreadableListEntry })`: one entry that this package's client cannot read, appended to every list
 * answer the resources read (every GET list of the feature-flag service, the operations center's bundle list and its
 * Controllers view), beside the entries the model holds. It is how a newer service's records would look to this
 * version; the model never holds it, so no write and no state view sees it.
 *
 * No public source shows an entry this client cannot read: each form below is made up, kept close to the records'
 * real shapes, and wrong in one field only (named in its comment), so that the entry still carries its name.
 */
import type { EmulatorRequest, Reply } from "./http";

/** An id as the service writes one (24 hex digits, ../shared/notes/api-behaviour.md). */
const OBJECT_ID = "5e95ad1fa6de037e1793732b";

/** A group operator no version of the package knows (test/resources/unreadable-configuration.test.ts uses it too). */
const ODD_CONDITIONS = [{ group: { operator: "xor", name: "beta-testers" }, value: true }];

/** The feature-flag service's list endpoints, by their last path segment: the entry each answer gets. */
const FEATURE_FLAG_FORMS: Readonly<Record<string, (name: string) => unknown>> = {
  // No `id`: a Mongo `_id` instead (the service's records carry Mongo's `_id` and `__v`: the AuditLog sample of the
  // vendor's Jenkins plugin, strangelookingnerd/cloudbees-feature-management-plugin).
  applications: (name) => ({ _id: OBJECT_ID, name }),
  // No `key` (the environment's id and SDK key), again `_id`.
  environments: (name) => ({ _id: OBJECT_ID, name, description: "" }),
  flags: (name) => ({ name, enabled: true, conditions: ODD_CONDITIONS, value: false }),
  experiments: (name) => ({ type: "experiment", flag: name, name, enabled: true, conditions: ODD_CONDITIONS, value: false }),
  // An operator beyond `and` and `or`.
  "target-groups": (name) => ({ type: "target-group", name, operator: "xor", conditions: [] }),
  // A permission beyond `read` and `write`.
  users: (name) => ({ email: name, name, teamAdmin: false, applications: { [OBJECT_ID]: { environments: { Production: "admin" } } } }),
  // No `creation_date`; named by `_id`.
  auditlogs: (name) => ({ _id: name, action: "updated experiment", message: "an entry without a date" }),
};

/** The operations center's lists the resources read: the key of the list in the answer, and the entry it gets. */
const CASC_FORMS: { suffix: string; key: string; entry: (name: string) => unknown }[] = [
  // `regex: null` for a bundle without a pattern, where the spec's bundle information object says a string, maybe empty.
  { suffix: "/casc-bundle/list", key: "bundles", entry: (name) => ({ name, linkFileContent: "", url: "", token: "", regex: null, availabilityPatternFromYaml: false, usedBy: [], availableFor: [] }) },
  // No `url`.
  { suffix: "/view/Controllers/api/json", key: "jobs", entry: (name) => ({ _class: "com.cloudbees.opscenter.server.model.ManagedMaster", name, fullName: name }) },
];

/**
 * The reply with the entry named `name` appended, when it is a successful GET of one of those lists (`featureFlags`:
 * the request went to the feature-flag service); else as it is.
 */
export function withUnreadableEntry(request: EmulatorRequest, reply: Reply, name: string, featureFlags: boolean): Reply {
  if (request.method !== "GET" || reply.status !== 200) return reply;
  let body: unknown;
  try {
    body = JSON.parse(reply.body.toString("utf8"));
  } catch {
    return reply;
  }
  if (featureFlags) {
    const last = request.path.slice(request.path.lastIndexOf("/") + 1);
    const form = Object.hasOwn(FEATURE_FLAG_FORMS, last) ? FEATURE_FLAG_FORMS[last] : undefined;
    // An object (one application, one member) is no list.
    return form && Array.isArray(body) ? { ...reply, body: Buffer.from(JSON.stringify([...body, form(name)])) } : reply;
  }
  const casc = CASC_FORMS.find((f) => request.path.endsWith(f.suffix));
  const list = casc && typeof body === "object" && body !== null ? (body as Record<string, unknown>)[casc.key] : undefined;
  if (!casc || !Array.isArray(list)) return reply;
  return { ...reply, body: Buffer.from(JSON.stringify({ ...(body as object), [casc.key]: [...list, casc.entry(name)] })) };
}
