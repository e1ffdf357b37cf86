import type * as pulumi from "@pulumi/pulumi";

/**
 * The host's own floor: a dynamic provider that does nothing but send the POST our ControllerBundleAssignment sends
 * (set-controller-to-bundle), with undici, the URL and credentials taken from the host's environment.
 */
export function minimalAssignmentProvider(): pulumi.dynamic.ResourceProvider {
  return {
    check: async (_olds, news) => ({ inputs: news }),
    create: async (inputs) => {
      const query = new URLSearchParams({ bundleId: inputs.bundleId, controllerPath: inputs.controllerPath });
      const url = `${process.env.BENCH_OC_URL}casc-bundle/set-controller-to-bundle?${query}`;
      const res = await require("undici").request(url, { method: "POST", headers: { authorization: process.env.BENCH_AUTHORIZATION } });
      await res.body.text();
      if (res.statusCode !== 200) throw new Error(`set-controller-to-bundle answered ${res.statusCode}`);
      return { id: `assignment/${inputs.controllerPath}`, outs: inputs };
    },
  };
}

/** The serializer's floor for a provider shell: seven methods that do nothing. */
export function emptySevenMethodProvider(): pulumi.dynamic.ResourceProvider {
  return {
    configure: async () => undefined,
    check: async (_olds, news) => ({ inputs: news }),
    diff: async () => ({}),
    create: async () => ({ id: "" }),
    read: async (id) => ({ id }),
    update: async () => ({}),
    delete: async () => undefined,
  };
}

/**
 * The floor of a controller's read: a dynamic provider whose refresh sends the two GETs ControllerConfiguration's
 * refresh sends (check-bundle-update?quiet=true and core-casc-export/zipExport, in parallel, to the resource's
 * instanceUrl) with undici, reads both bodies whole and returns what it had: the requests' own cost inside the host,
 * without reading what they answered.
 */
export function minimalControllerReader(): pulumi.dynamic.ResourceProvider {
  return {
    check: async (_olds, news) => ({ inputs: news }),
    create: async (inputs) => ({ id: `reader/${inputs.instanceUrl}`, outs: inputs }),
    read: async (id, props) => {
      const get = async (path: string) => {
        const res = await require("undici").request(`${props.instanceUrl}${path}`, { headers: { authorization: process.env.BENCH_AUTHORIZATION } });
        await res.body.arrayBuffer();
        if (res.statusCode !== 200) throw new Error(`${path} answered ${res.statusCode}`);
      };
      await Promise.all([get("casc-bundle-mgnt/check-bundle-update?quiet=true"), get("core-casc-export/zipExport")]);
      return { id, props };
    },
  };
}
