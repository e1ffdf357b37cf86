/**
 * The scale program's floor: a minimal dynamic provider that, per resource, sends the one write our resource sends
 * on create (and on delete), with undici, and nothing else: no check, no diff, no list; read returns the state as
 * it is. The same writes are what sendDirectly sends without Pulumi (the emulator's own growth, bench/scale.ts).
 * The URLs and credentials come from the environment: SCALE_OC_URL, SCALE_OC_AUTHORIZATION, SCALE_FM_URL,
 * SCALE_FM_AUTHORIZATION.
 */
import * as pulumi from "@pulumi/pulumi";
import { configurationOf, controller, controllersOf, environmentOf, ENVIRONMENTS, flagName, listBundle, regexBundle, regexOf, unitsOf } from "./layout";

type Props = Record<string, any>;
interface Write {
  service: "oc" | "fm";
  method: string;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
}
export interface Endpoint {
  url: string;
  authorization: string;
}

/** The write our resource of this kind sends to create (or delete) an object of these inputs; none: undefined. */
function writeOf(kind: string, op: "create" | "delete", p: Props): Write | undefined {
  const app = `public-api/applications/${p.applicationId}`;
  switch (kind) {
    case "Application":
      return op === "create" ? { service: "fm", method: "POST", path: "public-api/applications", body: { applicationName: p.name } } : undefined;
    case "Environment":
      // Production exists with every application: taken over without a write. Nothing deletes an environment.
      return op === "create" && p.name !== "Production" ? { service: "fm", method: "PUT", path: `${app}/environments/key`, body: { name: p.name } } : undefined;
    case "BundleAvailability": {
      const regex = Array.isArray(p.controllers) ? `^(?:${[...p.controllers].sort().join("|")})$` : p.regex;
      return op === "create"
        ? { service: "oc", method: "POST", path: "casc-bundle/set-availability-pattern", query: { bundleId: p.bundleId, regex } }
        : { service: "oc", method: "POST", path: "casc-bundle/clear-availability-pattern", query: { bundleId: p.bundleId } };
    }
    case "ControllerBundleAssignment":
      return op === "create" ? { service: "oc", method: "POST", path: "casc-bundle/set-controller-to-bundle", query: { bundleId: p.bundleId, controllerPath: p.controllerPath } } : undefined;
    case "Flag":
      return op === "create" ? { service: "fm", method: "PUT", path: `${app}/flags`, body: { name: p.name } } : { service: "fm", method: "DELETE", path: `${app}/flags/${encodeURIComponent(p.name)}` };
    case "FlagConfiguration":
      // X3's body is an Experiment with the fields the API defines (../shared/notes/feature-management-api.md section
      // 3, "Experiment": type "experiment" and flag required, name the flag's (ignored), availableValues, labels,
      // value), which is what our client sends (provider/clients/feature-flag-requests.ts experimentRequest), in its
      // order: the fields of the schema as the note lists them, its configuration fields last. The body this provider
      // sent before (value and labels first) held the same fields and values: JSON does not order an object's members
      // (RFC 8259 section 4), so both were right, and now both send the same bytes.
      return op === "create"
        ? {
            service: "fm",
            method: "PUT",
            path: `${app}/${encodeURIComponent(p.environment)}/experiments`,
            body: { type: "experiment", flag: p.flag, name: p.flag, availableValues: [false, true], labels: p.labels, value: p.value },
          }
        : { service: "fm", method: "DELETE", path: `${app}/${encodeURIComponent(p.environment)}/experiments/${encodeURIComponent(p.flag)}` };
  }
  throw new Error(`no such kind ${kind}`);
}

/** Sends a write; its answer's text (a status other than 2xx fails). */
async function send(w: Write, endpoints: { oc: Endpoint; fm: Endpoint }): Promise<string> {
  const { request } = require("undici");
  const endpoint = endpoints[w.service];
  const query = w.query ? `?${new URLSearchParams(w.query)}` : "";
  const res = await request(`${endpoint.url}${w.path}${query}`, {
    method: w.method,
    headers: { authorization: endpoint.authorization, ...(w.body === undefined ? {} : { "content-type": "application/json" }) },
    ...(w.body === undefined ? {} : { body: JSON.stringify(w.body) }),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${w.method} ${w.path} answered ${res.statusCode}: ${text.slice(0, 200)}`);
  return text;
}

/** Creates: the write, then the outputs (the inputs, and an application's id from the answer). */
async function createObject(kind: string, inputs: Props, endpoints: { oc: Endpoint; fm: Endpoint }): Promise<Props> {
  const w = writeOf(kind, "create", inputs);
  const answer = w ? await send(w, endpoints) : "";
  return kind === "Application" ? { ...inputs, applicationId: JSON.parse(answer).id } : inputs;
}

async function deleteObject(kind: string, props: Props, endpoints: { oc: Endpoint; fm: Endpoint }): Promise<void> {
  const w = writeOf(kind, "delete", props);
  if (w) await send(w, endpoints);
}

const fromEnv = () => ({
  oc: { url: process.env.SCALE_OC_URL!, authorization: process.env.SCALE_OC_AUTHORIZATION! },
  fm: { url: process.env.SCALE_FM_URL!, authorization: process.env.SCALE_FM_AUTHORIZATION! },
});

const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: Props) {
    const outs = await createObject(inputs.kind, inputs, fromEnv());
    return { id: `${inputs.kind}/${inputs.name ?? inputs.bundleId ?? inputs.controllerPath ?? inputs.flag}`, outs };
  },
  async read(id: string, props: Props) {
    return { id, props };
  },
  async delete(_id: string, props: Props) {
    await deleteObject(props.kind, props, fromEnv());
  },
};

class Minimal extends pulumi.dynamic.Resource {
  declare readonly applicationId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  constructor(kind: string, name: string, props: Record<string, pulumi.Input<unknown>>, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { ...props, kind, applicationId: props.applicationId }, opts, "scale", kind);
  }
}

/** The scale program's resources, through the minimal provider (the same objects as ours: index.ts). */
export function minimal({ tag, units }: { tag: string; units: number }): void {
  const app = new Minimal("Application", "app", { name: `${tag}-app` });
  const applicationId = app.applicationId;
  const environments = Object.fromEntries(ENVIRONMENTS.map((name) => [name, new Minimal("Environment", `env-${name}`, { applicationId, name })]));
  for (let i = 0; i < units; i++) {
    new Minimal("BundleAvailability", `regex-${i}`, { bundleId: regexBundle(i), regex: regexOf(i) });
    const listed = new Minimal("BundleAvailability", `list-${i}`, { bundleId: listBundle(i), controllers: controllersOf(i, units) });
    new Minimal("ControllerBundleAssignment", `assign-${i}`, { controllerPath: controller(i), bundleId: listBundle(i) }, { dependsOn: [listed] });
    const flag = new Minimal("Flag", `flag-${i}`, { applicationId, name: flagName(i) });
    new Minimal("FlagConfiguration", `conf-${i}`, { applicationId, environment: environments[environmentOf(i)]!.name, flag: flag.name, ...configurationOf(i) });
  }
}

/**
 * The same writes without Pulumi, in the engine's order (the application, the environments, the availabilities and
 * flags, the assignments and configurations; then the deletes in reverse), `parallel` at a time.
 */
export async function sendDirectly({ count, tag, oc, fm, parallel = 10 }: { count: number; tag: string; oc: Endpoint; fm: Endpoint; parallel?: number }): Promise<void> {
  const endpoints = { oc, fm };
  const units = unitsOf(count);
  const range = Array.from({ length: units }, (_, i) => i);
  const limited = async <T>(items: T[], f: (item: T) => Promise<unknown>) => {
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, async () => {
      while (next < items.length) await f(items[next++]!);
    }));
  };
  const app = await createObject("Application", { name: `${tag}-app` }, endpoints);
  const applicationId = app.applicationId as string;
  for (const name of ENVIRONMENTS) await createObject("Environment", { applicationId, name }, endpoints);
  const availabilities = range.flatMap((i) => [{ bundleId: regexBundle(i), regex: regexOf(i) }, { bundleId: listBundle(i), controllers: controllersOf(i, units) }]);
  const flags = range.map((i) => ({ applicationId, name: flagName(i) }));
  const assignments = range.map((i) => ({ controllerPath: controller(i), bundleId: listBundle(i) }));
  const configurations = range.map((i) => ({ applicationId, environment: environmentOf(i), flag: flagName(i), ...configurationOf(i) }));
  const first: Array<[string, Props]> = [...availabilities.map((p) => ["BundleAvailability", p] as [string, Props]), ...flags.map((p) => ["Flag", p] as [string, Props])];
  const second: Array<[string, Props]> = [...assignments.map((p) => ["ControllerBundleAssignment", p] as [string, Props]), ...configurations.map((p) => ["FlagConfiguration", p] as [string, Props])];
  await limited(first, ([kind, p]) => createObject(kind, p, endpoints));
  await limited(second, ([kind, p]) => createObject(kind, p, endpoints));
  await limited([...second].reverse(), ([kind, p]) => deleteObject(kind, p, endpoints));
  await limited([...first].reverse(), ([kind, p]) => deleteObject(kind, p, endpoints));
}
