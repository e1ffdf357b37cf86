import { KEEPS_DECLARED_INPUTS, resources, type ProviderKind } from "../resources";
import { SECRET_OUTPUTS as TOKEN_SECRET_OUTPUTS } from "../resources/controller-bundle-token/types";
import { declaredNames, DECLARED_INPUTS_KEY, withoutDeclaredInputs } from "../resources/shared/declared-inputs";
import { withPartialProperties } from "../resources/shared/errors";
import type { CheckResult, DiffResult, Props, ResourceController } from "../resources/shared/types";
import { importStart } from "./import-ids";
import { invoke } from "./invokes";
import { spelledFailure } from "./input-spellings";
import { unwrapSecrets, wrapSecrets } from "./secrets";
import { SECRET_INPUTS_KEY, withoutSecretInputsKey } from "../resources/shared/secret-inputs";
import { kindOfToken, tokenOfUrn, typeNameOf } from "./tokens";

/**
 * The plugin's face of the resources: the provider protocol's check, diff, create, read, update and delete of each
 * resource, served by the same controllers the dynamic providers' shells call (provider/resources, wrapped there
 * with `connection`, the guard and everything else), and the program functions as invokes. This file only
 * translates: the resource's type from the URN, secrets off on the way in and back on the way out (secrets.ts),
 * the properties an import's read starts from (import-ids.ts).
 */

/** Outputs a resource always marks secret, whatever its inputs: the same lists its TypeScript class marks. */
export const SECRET_OUTPUTS: Partial<Record<ProviderKind, readonly string[]>> = {
  controllerBundleToken: TOKEN_SECRET_OUTPUTS,
};

function controllerOf(urn: string): { kind: ProviderKind; controller: ResourceController; typeName: string } {
  const token = tokenOfUrn(urn);
  const kind = kindOfToken(token);
  if (!kind) throw new Error(`cloudbees has no resource type ${token}`);
  return { kind, controller: resources[kind], typeName: typeNameOf(kind) };
}

/** The keys an output must carry as secrets: those whose input was one, and the kind's secret outputs. */
function secretKeys(kind: ProviderKind, ...inputs: Array<Set<string>>): Set<string> {
  return new Set([...inputs.flatMap((s) => [...s]), ...(SECRET_OUTPUTS[kind] ?? [])]);
}

/** A partial create's error carries the outputs the engine records: secrets on them too. */
function withSecretProperties(error: unknown, keys: Set<string>): unknown {
  return withPartialProperties(error, (p) => wrapSecrets(withoutDeclaredInputs(p), keys) ?? {});
}

/** What the protocol's server (server.ts) calls: values as the engine marshals them, secrets wrapped. */
export interface PluginProvider {
  check(urn: string, olds: Props, news: Props): Promise<CheckResult>;
  diff(id: string, urn: string, olds: Props, news: Props): Promise<DiffResult & { detailedDiff?: unknown; stables?: string[] }>;
  create(urn: string, inputs: Props): Promise<{ id: string; outs: Props }>;
  /**
   * No props: the object is gone (the engine drops it; an import says it does not exist). `inputs`: those the engine
   * recorded (none for an import).
   */
  read(id: string, urn: string, props: Props, inputs?: Props): Promise<{ id?: string; props?: Props; inputs?: Props }>;
  update(id: string, urn: string, olds: Props, news: Props): Promise<{ outs: Props }>;
  delete(id: string, urn: string, props: Props): Promise<void>;
  invoke(token: string, args: Props): Promise<{ outputs: Props }>;
}

export function cloudbeesProvider(): PluginProvider {
  return {
    async check(urn, olds, news) {
      const token = tokenOfUrn(urn);
      const kind = kindOfToken(token);
      if (!kind) return { inputs: news, failures: [{ property: "", reason: `cloudbees has no resource type ${token}` }] };
      const n = unwrapSecrets(news);
      // The inputs that came secret, told as the TypeScript face tells them (resources/shared/secret-inputs.ts).
      const told = n.secretKeys.size ? { ...n.plain, [SECRET_INPUTS_KEY]: [...n.secretKeys] } : withoutSecretInputsKey(n.plain);
      const result = await resources[kind].check(unwrapSecrets(olds).plain, told);
      const failures = result.failures.map((f) => spelledFailure(f, Object.keys(n.plain)));
      return { inputs: wrapSecrets(result.inputs, n.secretKeys) ?? {}, failures };
    },

    async diff(id, urn, olds, news) {
      return controllerOf(urn).controller.diff(id, unwrapSecrets(olds).plain, unwrapSecrets(news).plain);
    },

    async create(urn, inputs) {
      const { kind, controller } = controllerOf(urn);
      const i = unwrapSecrets(inputs);
      const keys = secretKeys(kind, i.secretKeys);
      try {
        const result = await controller.create(i.plain);
        return { id: result.id, outs: wrapSecrets(withoutDeclaredInputs(result.outs), keys) ?? {} };
      } catch (e) {
        throw withSecretProperties(e, keys);
      }
    },

    async read(id, urn, props, inputs) {
      const { kind, controller, typeName } = controllerOf(urn);
      const p = unwrapSecrets(props);
      const keys = secretKeys(kind, p.secretKeys);
      // By id alone (an import): the properties and the connection the id carries (import-ids.ts). Otherwise the
      // engine's recorded inputs say what the program declared (shared/declared-inputs.ts).
      const recorded = KEEPS_DECLARED_INPUTS.has(kind) && inputs && Object.keys(inputs).length > 0 ? declaredNames(unwrapSecrets(inputs).plain) : undefined;
      const start = Object.keys(p.plain).length > 0 ? { id, props: { ...p.plain, ...(recorded && { [DECLARED_INPUTS_KEY]: recorded }) } } : importStart(kind, typeName, id);
      const result = await controller.read(start.id, start.props);
      // Gone: no id and no properties, and the engine drops the resource (an import says it does not exist).
      if (result.props === undefined) return {};
      return { id: result.id ?? start.id, props: wrapSecrets(withoutDeclaredInputs(result.props), keys), inputs: wrapSecrets(result.inputs ?? {}, p.secretKeys) };
    },

    async update(id, urn, olds, news) {
      const { kind, controller } = controllerOf(urn);
      const o = unwrapSecrets(olds);
      const n = unwrapSecrets(news);
      const result = await controller.update(id, o.plain, n.plain);
      return { outs: wrapSecrets(withoutDeclaredInputs(result.outs), secretKeys(kind, n.secretKeys)) ?? {} };
    },

    async delete(id, urn, props) {
      await controllerOf(urn).controller.delete(id, unwrapSecrets(props).plain);
    },

    async invoke(token, args) {
      const name = token.slice(token.lastIndexOf(":") + 1);
      return { outputs: await invoke(name, unwrapSecrets(args).plain) };
    },
  };
}
