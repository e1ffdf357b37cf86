// Issue 52, through the plugin (the provider protocol, as the engine calls check): a failure about a value holding a
// credential, or about an input the program sent secret, names no property (the engine would print its value:
// step_generator.go issueCheckFailures), and its reason names the input in every language's words; any other
// failure keeps its property. The engines' lines are test/testing/engine-diffs.test.ts's.
import { secret } from "../../testing/engine/values";
import { checkingPlugin, urnOf } from "./plugin-process";

const TOKEN = "9f2c4e1a7b3d5f6e8a0c1b2d3e4f5a6b";
const plugin = checkingPlugin();

it.each([
  ["a token in instanceUrl's query", "BundleReload", { instanceUrl: `https://ci.example.com/team-a/?token=${TOKEN}` }, 'instanceUrl (Python: instance_url, Go: InstanceUrl) "https://ci.example.com/team-a/" must not have a query or fragment'],
  ["a token in instanceUrl's user-info", "Items", { yaml: "items: []\n", instanceUrl: `https://admin:${TOKEN}@ci.example.com/` }, "instanceUrl (Python: instance_url, Go: InstanceUrl) must not hold credentials"],
  ["a token typed as a connection's name", "Application", { name: "shop", connection: TOKEN }, "connection (Go: Connection) looks like a credential, not a name"],
  ["an input sent secret", "Application", { name: secret(`shop\u0007${TOKEN.slice(0, 8)}`) }, "name (Go: Name) <hidden: it holds a credential> holds a control character"],
] as const)("%s: no property, the input named, the value nowhere", async (_case, type, news, reason) => {
  const { failures } = await plugin().check(urnOf(type, "leaky"), {}, news as never);
  expect(failures).toEqual([{ property: "", reason: expect.stringContaining(reason) }]);
  expect(failures[0]!.reason.startsWith(reason.split(" ")[0]!)).toBe(true);
  expect(JSON.stringify(failures)).not.toContain(TOKEN.slice(0, 8));
  expect(plugin().stderr).not.toContain(TOKEN.slice(0, 8));
});

it("any other failure keeps its property, its reason naming the input in every language's words", async () => {
  const { failures } = await plugin().check(urnOf("BundleReload", "plain"), {}, { instanceUrl: "ftp://ci.example.com/", allowRestartRequired: "yes" });
  expect(failures).toEqual([
    { property: "instanceUrl", reason: expect.stringMatching(/^instanceUrl \(Python: instance_url, Go: InstanceUrl\) "ftp:\/\/ci\.example\.com\/" must be an http\(s\) URL/) },
    { property: "allowRestartRequired", reason: expect.stringMatching(/^allowRestartRequired \(Python: allow_restart_required, Go: AllowRestartRequired\) must be true or false/) },
  ]);
});
