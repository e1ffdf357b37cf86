import { readPreviewEvents } from "../../cli/drift/events";
import { pathNote } from "../../provider/resources/controller-configuration/drift-notes";

// A controller's drifted paths in the drift report (issue 65): each path's own warning (drift-notes.ts, as a dynamic
// provider's host prints it, without a URN) names who changed that path and when; its values are the state's, as they
// are where they hold no secret (the state's JSON text read as the value it is), else digests.

const ID = "controller-configuration/team-a/controller-a";
const URN = "urn:pulumi:dev::controllers::pulumi-nodejs:dynamic/cloudbees:ControllerConfiguration::team-a";
const MESSAGE = "jenkins.yaml: jenkins.systemMessage";
const LOCATION = "jenkins.yaml: unclassified.location.adminAddress";
const CREDENTIAL = 'jenkins.yaml: credentials.system.domainCredentials[0].credentials["nexus"].usernamePassword.username';

const step = {
  resourcePreEvent: {
    metadata: {
      op: "update",
      urn: URN,
      type: "pulumi-nodejs:dynamic/cloudbees:ControllerConfiguration",
      old: { id: ID, inputs: { configuration: { [MESSAGE]: '"Changed in the UI"', [LOCATION]: '"bob@example.org"', [CREDENTIAL]: "2056c50dfa93691d (the credentials section)" } } },
      new: { id: ID, inputs: { configuration: { [MESSAGE]: '"Managed by CasC"', [LOCATION]: '"ci@example.org"', [CREDENTIAL]: "21b05289ab4325e6 (the credentials section)" } } },
    },
  },
};
const warning = (message: string) => JSON.stringify({ diagnosticEvent: { severity: "info#err", message: `warning: ${message}\n` } });

it("each path's who and when on that path alone; unknown and SYSTEM as said; values as the state holds them", () => {
  const e = readPreviewEvents([
    JSON.stringify(step),
    warning(`ControllerConfiguration (${ID}): controller "team-a/controller-a" differs from its bundle "team-a": ${CREDENTIAL} changed; ${MESSAGE} changed; ${LOCATION} changed`),
    warning(pathNote(ID, MESSAGE, '"Managed by CasC"', '"Changed in the UI"', { by: "alice", name: "Alice Liddell", at: "2026-11-30T14:02:33 (controller time)" })),
    warning(pathNote(ID, LOCATION, '"ci@example.org"', '"bob@example.org"', { by: "unknown", note: 'config.xml was changed by "x", "y"' })),
    warning(pathNote(ID, CREDENTIAL, "21b05289ab4325e6 (the credentials section)", "2056c50dfa93691d (the credentials section)", { by: "SYSTEM", at: "2026-11-30T13:00:00 (controller time)", note: "a bundle" })),
  ]);
  const [resource] = e.resources;
  const byPath = Object.fromEntries(resource!.paths.map((p) => [p.path, p]));
  expect(byPath[`configuration[${JSON.stringify(MESSAGE)}]`]).toEqual({
    path: `configuration[${JSON.stringify(MESSAGE)}]`,
    kind: "update",
    // The entry's JSON shown as the value it is: quoted once in every rendering.
    declared: "Managed by CasC",
    actual: "Changed in the UI",
    changedBy: "alice",
    changedAt: "2026-11-30T14:02:33 (controller time)",
  });
  expect(byPath[`configuration[${JSON.stringify(LOCATION)}]`]).toMatchObject({ changedBy: "unknown" });
  expect(byPath[`configuration[${JSON.stringify(LOCATION)}]`]!.changedAt).toBeUndefined();
  expect(byPath[`configuration[${JSON.stringify(CREDENTIAL)}]`]).toMatchObject({ changedBy: "SYSTEM", changedAt: "2026-11-30T13:00:00 (controller time)", actual: "2056c50dfa93691d (the credentials section)" });
  expect(resource!.notes).toHaveLength(4);
});
