// Issue 52: a check failure about an input whose value holds a credential names no property (the engine prints the
// value of the property a failure names: pulumi/pulumi step_generator.go issueCheckFailures), and its reason names
// the input and the rule without the value. Directly on the controllers (the wrappers included); the engines' lines
// are test/testing/engine-diffs.test.ts's, the plugin's test/plugin/check-failures.test.ts's.
import { resources } from "../../provider/resources";

const TOKEN = "9f2c4e1a7b3d5f6e8a0c1b2d3e4f5a6b";
const { bundleReload, bundleAvailability, controllerConfiguration } = resources;

describe("a credential in the value: no property, the input named, the value left out", () => {
  it.each([
    ["a token in the query", bundleReload, { instanceUrl: `https://ci.example.com/team-a/?token=${TOKEN}` }, /^instanceUrl "https:\/\/ci\.example\.com\/team-a\/" must not have a query or fragment/],
    ["a short token in the query", bundleReload, { instanceUrl: "https://ci.example.com/?token=s3cr3t" }, /^instanceUrl .*must not have a query/],
    ["user-info", bundleReload, { instanceUrl: `https://admin:${TOKEN}@ci.example.com/` }, /^instanceUrl must not hold credentials/],
    ["a query and spaces around", bundleReload, { instanceUrl: ` https://ci.example.com/?token=${TOKEN} ` }, /^instanceUrl <hidden: it holds a credential> has leading or trailing spaces/],
    ["a query without a scheme", controllerConfiguration, { instanceUrl: "ci.example.com/?token=s3cr3t", bundleId: "b", bundleTreePath: "." }, /^instanceUrl "ci\.example\.com\/" is not a URL/],
    ["a misspelt input", bundleReload, { instanceURL: `https://ci.example.com/?token=${TOKEN}` }, /^unknown input instanceURL; did you mean instanceUrl\?/],
    ["a token typed where a name belongs (connection)", bundleReload, { connection: TOKEN }, /^connection looks like a credential, not a name/],
    ["a token typed where a name belongs (instance)", bundleReload, { instance: `ghp_${TOKEN}` }, /^instance looks like a credential, not a name/],
    ["a token in a list whose item fails", bundleAvailability, { bundleId: "b", controllers: ["sandbox", `${TOKEN} `] }, /^controllers\[1\]: <hidden: it holds a credential> has leading or trailing spaces/],
  ] as const)("%s", async (_name, controller, news, reason) => {
    const { failures } = await controller.check({}, news);
    const failure = failures.find((f) => reason.test(f.reason));
    expect(failure).toEqual({ property: "", reason: expect.stringMatching(reason) });
    expect(JSON.stringify(failures)).not.toContain(TOKEN.slice(0, 12));
    expect(JSON.stringify(failures)).not.toContain("s3cr3t");
  });
});

it("a failure about a value without a credential keeps its property (the engine prints the value)", async () => {
  const { failures } = await bundleReload.check({}, { instanceUrl: "ftp://ci.example.com/", connection: "bad name" });
  expect(failures.map((f) => f.property).sort()).toEqual(["connection", "instanceUrl"]);
});
