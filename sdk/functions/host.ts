import * as pulumi from "@pulumi/pulumi";
import { readStackConfig, type RawConfig } from "../../provider/config";
import type { FunctionHost, FunctionSpec } from "../../provider/functions/host";
import { printable } from "../../provider/text/printable";
import { activeMockCall, callMock } from "./mocks";

/**
 * The TypeScript face's host of the functions (provider/functions): a program's settings, its warnings through the
 * engine (on stderr in a plain script), and the mocks' `call` under `pulumi.runtime.setMocks`.
 */
export const programHost: FunctionHost = {
  stackConfig: programConfig,
  userAgent: "pulumi-cloudbees-functions",
  warn: (message) => pulumi.log.warn(printable(message)),
  answer<T>(spec: FunctionSpec<T>, inputs: Record<string, unknown>, operation: string): Promise<T> | undefined {
    const call = activeMockCall();
    return call ? callMock(call, spec, inputs, operation) : undefined;
  },
};

/**
 * The program's `cloudbees:*` stack config, secrets included, in the form provider/config parses. Outside a
 * program (a plain script) there is no stack config (the engine hands it to a program in PULUMI_CONFIG), so this
 * is empty and the environment alone applies. Read at each call: the Automation API may run several programs, with
 * their own config, in one process.
 */
function programConfig(): RawConfig {
  const config = new pulumi.Config("cloudbees");
  // `connections` comes as the JSON text of the object (`pulumi config set --path` builds it); provider/config
  // parses it.
  // get() gives secret values in clear: the clients need them, and they never leave this process (no result,
  // message or output of these functions holds a credential).
  return readStackConfig({ get: (key) => config.get(key.slice(key.indexOf(":") + 1)) });
}
