import { UNSAFE_CHARACTERS } from "../../provider/text/printable";
import {
  ABSENT,
  configurationDigests,
  type ConfigurationView,
  describeDrift,
  digestOf,
  digestOfForm,
  effectOfChange,
  formOf,
  isSecretName,
  MAX_SHOWN_LENGTH,
  PRESENT,
  sameValues,
} from "../../provider/configuration";

// Values in clear where they hold no secret (issue 65): a record shows each compared value as it is, bounded and
// escaped, except where it can hold one, which keeps its digest and says why. The digest every form stands for is the
// one an earlier version wrote, so that a state of digests compares with a state of values.

/** The bundleutils credential shape (tsmp-falcon-platform/ci-bundle-utils, tests/resources/credentials). */
const bundle = (): ConfigurationView => ({
  jenkins: {
    jenkins: { systemMessage: "Managed by Pulumi", numExecutors: 2, agentProtocols: ["JNLP4-connect", "Ping"], markupFormatter: { rawHtml: {} } },
    unclassified: { location: { adminAddress: "ci@example.org" }, vault: { apiKey: "literal-key", url: "https://vault" } },
    credentials: { system: { domainCredentials: [{ credentials: [{ usernamePassword: { id: "gh", username: "bot", password: "${GH}" } }] }] } },
    security: { gitHostKeyVerificationConfiguration: { sshHostKeyVerificationStrategy: "knownHostsFileVerificationStrategy" } },
  },
  plugins: ["git"],
  catalog: { configurations: [{ includePlugins: { beer: { version: "1.2" } } }] },
  items: { removeStrategy: "none", items: [{ kind: "pipeline", name: "deploy", description: "Deploys" }, { kind: "folder", name: "vault", properties: { folderCredentialsProperty: { x: 1 } } }] },
});

const running = (): ConfigurationView & { jenkins: Record<string, any> } => {
  const view = structuredClone(bundle()) as ConfigurationView & { jenkins: Record<string, any> };
  view.jenkins.credentials.system.domainCredentials[0].credentials[0].usernamePassword.password = "{AQAAABAAAAAQencrypted=}";
  return view;
};

describe("values shown", () => {
  it("a value that holds no secret is shown as it is, the same on both sides when equal", () => {
    const d = configurationDigests(bundle(), running(), []);
    expect(d.expected["jenkins.yaml: jenkins.systemMessage"]).toBe('"Managed by Pulumi"');
    expect(d.expected["jenkins.yaml: jenkins.numExecutors"]).toBe('"2"');
    expect(d.expected["jenkins.yaml: jenkins.agentProtocols"]).toBe('["JNLP4-connect","Ping"]');
    expect(d.expected["jenkins.yaml: jenkins.markupFormatter.rawHtml"]).toBe("{}");
    expect(d.expected["plugins.yaml: git"]).toBe('"installed"');
    expect(d.expected["plugin-catalog.yaml: beer"]).toBe('{"version":"1.2"}');
    expect(d.expected['items.yaml: item "deploy"']).toBe('{"description":"Deploys","kind":"pipeline","name":"deploy"}');
    expect(d.running).toEqual(d.expected);
    expect(describeDrift(d.expected, d.running)).toEqual([]);
  });

  it("a changed system message shows from what to what; a credential's change stays a digest and says why", () => {
    const r = running();
    r.jenkins.jenkins.systemMessage = "Maintenance tonight";
    r.jenkins.credentials.system.domainCredentials[0].credentials[0].usernamePassword.username = "someone-else";
    const d = configurationDigests(bundle(), r, []);
    expect(d.running["jenkins.yaml: jenkins.systemMessage"]).toBe('"Maintenance tonight"');
    const user = 'jenkins.yaml: credentials.system.domainCredentials[0].credentials["gh"].usernamePassword.username';
    expect(d.expected[user]).toBe(`${digestOf("bot")} (the credentials section)`);
    expect(d.running[user]).toBe(`${digestOf("someone-else")} (the credentials section)`);
    expect(JSON.stringify(d)).not.toMatch(/someone-else|"bot"/);
    expect(describeDrift(d.expected, d.running)).toEqual([`${user} changed`, "jenkins.yaml: jenkins.systemMessage changed"]);
  });

  it("what can hold a secret keeps its digest, each with its reason", () => {
    const r = running();
    r.jenkins.unclassified.vault.url = "****";
    const d = configurationDigests(bundle(), r, []);
    expect(d.expected["jenkins.yaml: unclassified.vault.apiKey"]).toBe(`${digestOf(PRESENT)} ("apiKey" names a secret)`);
    expect(d.running["jenkins.yaml: unclassified.vault.url"]).toBe(`${digestOf("****")} (JCasC masks it (****))`);
    expect(d.expected["jenkins.yaml: unclassified.vault.url"]).toBe(`${digestOf("https://vault")} (JCasC masks it (****))`);
    expect(d.expected['items.yaml: item "vault"']).toMatch(/^[0-9a-f]{16} \(it holds "folderCredentialsProperty", which can hold a secret\)$/);
    const variable = configurationDigests({ jenkins: { jenkins: { systemMessage: "Hello ${NAME}" } } }, { jenkins: { jenkins: { systemMessage: "Hello Ana" } } });
    expect(variable.running["jenkins.yaml: jenkins.systemMessage"]).toBe(`${digestOf(PRESENT)} (a secret or a variable, compared by its presence)`);
    expect(JSON.stringify(variable)).not.toContain("Ana");
    const marked = configurationDigests(bundle(), running(), [], { programSecret: "bundleId" });
    expect(new Set(Object.values(marked.expected).map((v) => v.replace(/^[0-9a-f]{16} /, "")))).toEqual(new Set(["(the program marks bundleId secret)"]));
  });

  it("secret names: what JCasC's exports hold encrypted, and more; an id naming a credential is not one", () => {
    for (const name of ["password", "privateKey", "secret", "secretBytes", "token", "apiToken", "passphrase", "clientSecret", "kubeconfig", "key", "sshKey"]) expect(isSecretName(name)).toBe(true);
    for (const name of ["credentialsId", "systemMessage", "url", "numExecutors", "description", "username"]) expect(isSecretName(name)).toBe(false);
  });

  it("every value bounded and escaped: a long one keeps its start, its length and its digest", () => {
    const hostile = `line one\nline two \u001b[31mred\u001b[0m \u202eevil ##vso[task.setvariable]x "quoted" \\ ${"x".repeat(5000)}`;
    const d = configurationDigests({ jenkins: { jenkins: { systemMessage: "ok" } } }, { jenkins: { jenkins: { systemMessage: hostile } } });
    const shown = d.running["jenkins.yaml: jenkins.systemMessage"]!;
    expect(shown.length).toBeLessThanOrEqual(MAX_SHOWN_LENGTH);
    expect(shown).toMatch(new RegExp(`… \\(${hostile.length} characters, digest ${digestOf(hostile)}\\)$`));
    expect(shown).not.toMatch(UNSAFE_CHARACTERS);
    expect(shown).not.toContain("##vso[");
    expect(shown.startsWith('"line one\\nline two \\u001b[31mred')).toBe(true);
    // Two long values that share their start stay two values.
    expect(formOf(`${"y".repeat(300)}a`, undefined)).not.toBe(formOf(`${"y".repeat(300)}b`, undefined));
    // Cut inside an escape or a surrogate pair, never.
    expect(formOf(`${"z".repeat(147)}\u0001${"z".repeat(300)}`, undefined)).toMatch(/^"z{147}… \(/);
    expect(formOf(`${"z".repeat(148)}😀${"z".repeat(300)}`, undefined)).toMatch(/^"z{148}… \(/);
  });

  it("every form stands for the digest an earlier version wrote: records of digests and records of values compare", () => {
    const r = running();
    r.jenkins.jenkins.systemMessage = `Öl \u2028 "x" \\ \u001b ##vso[ ${"long ".repeat(100)}`;
    const d = configurationDigests(bundle(), r, []);
    const legacy = (view: ConfigurationView) => {
      // An earlier version's record: the digest of the same value for every key.
      const forms = configurationDigests(bundle(), view, []).running;
      return Object.fromEntries(Object.entries(forms).map(([k, v]) => [k, digestOfForm(v)!]));
    };
    expect(Object.values(d.running).every((v) => digestOfForm(v) !== undefined)).toBe(true);
    expect(digestOfForm(d.running["jenkins.yaml: jenkins.systemMessage"]!)).toBe(digestOf(r.jenkins.jenkins.systemMessage));
    expect(digestOfForm('["JNLP4-connect","Ping"]')).toBe(digestOf(["Ping", "JNLP4-connect"]));
    expect(digestOfForm('"2"')).toBe(digestOf(2));
    expect(sameValues(d.running, legacy(r))).toBe(true);
    expect(sameValues(d.running, legacy(running()))).toBe(false);
    expect(sameValues({ a: ABSENT }, { a: "absent" })).toBe(true);
    expect(sameValues({ a: '"x"' }, { a: '"y"' })).toBe(false);
    expect(sameValues({ a: '"x"' }, { a: '"x"', b: '"y"' })).toBe(false);
  });

  it("a bundle change's effect is read in the same forms", () => {
    const after = bundle() as ConfigurationView & { jenkins: Record<string, any> };
    after.jenkins.jenkins.systemMessage = "v2";
    expect(effectOfChange(bundle(), after)).toEqual(["jenkins.yaml: jenkins.systemMessage changed"]);
  });
});
