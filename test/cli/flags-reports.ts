/**
 * A flags-report.json made by hand for the page's tests (flags-page.test.ts, test/real-engine/flags-page.test.ts):
 * server text (application, environment, flag and value names, reasons, errors) and source lines (a code
 * reference's file and spelling) that try to become markup, a script, a CI command or a URL.
 */
import { FLAGS_REPORT_SCHEMA_VERSION, type FlagReport, type FlagsReport } from "../../cli/flags/report";
import { HOSTILE } from "./drift-reports";

export const FLAGS_AS_OF = "2030-03-15T12:00:00.000Z";
export const URL_TEXT = "https://evil.example/x.png";

function flag(name: string, verdict: FlagReport["verdict"], extra: Partial<FlagReport> = {}): FlagReport {
  return {
    name,
    isPermanent: false,
    verdict,
    reason: `${HOSTILE.script} reason of ${name}`,
    lastChange: { kind: "unchanged", since: "2030-02-13T12:00:00.000Z" },
    environments: [
      {
        environment: `Prod ${HOSTILE.script}`,
        critical: true,
        status: "stale",
        basis: "impressions",
        reason: "one value",
        value: `<img src=${URL_TEXT}>`,
        values: [{ value: `<img src=${URL_TEXT}>`, count: 9 }],
        overThreshold: { status: "stale", reason: "one value" },
        daily: [
          { day: "2030-03-13", value: `<img src=${URL_TEXT}>`, count: 4 },
          { day: "2030-03-15", value: `<img src=${URL_TEXT}>`, count: 5 },
        ],
      },
      {
        environment: "Dev",
        critical: false,
        status: "active",
        basis: "impressions",
        reason: "two values",
        values: [],
        overThreshold: { status: "active", reason: "two values" },
        daily: [
          { day: "2030-03-14", value: "on", count: 2 },
          { day: "2030-03-14", value: HOSTILE.ciCommand, count: 1 },
        ],
      },
    ],
    codeReferences: { count: 1, files: 1, references: [{ root: "src", file: `${HOSTILE.script}.js`, line: 3, column: 5, alias: HOSTILE.backticks, aliasKind: "name", context: [{ line: 3, text: `${HOSTILE.ciCommand} ${HOSTILE.script}`, column: 5, truncated: false }] }] },
    declarations: null,
    ...extra,
  };
}

export function hostileFlagsReport(): FlagsReport {
  const app = `shop ${HOSTILE.script}`;
  const code = flag(`checkout.${HOSTILE.script}`, "remove-from-code", {
    value: HOSTILE.ciCommand,
    candidate: { status: "new", firstSeen: FLAGS_AS_OF },
    removal: { hardCode: HOSTILE.ciCommand, codeReferences: 1, resources: [], steps: [`${HOSTILE.vso} hard-code it`, `${HOSTILE.lineBreak} then deploy`] },
  });
  return {
    schemaVersion: FLAGS_REPORT_SCHEMA_VERSION,
    generatedAt: FLAGS_AS_OF,
    asOf: FLAGS_AS_OF,
    toolVersion: HOSTILE.script,
    options: { staleDays: 30, statusWindowDays: 7, historyDays: 60, critical: [`Prod ${HOSTILE.script}`], roxy: [], applications: [], sources: ["src"], contextLines: 1, delimiters: ['"'], failOn: "any" },
    summary: { applications: 1, environments: 2, flags: 2, keep: 1, removeFromCode: 1, removeFromIac: 0, unknown: 0, candidates: 1, newCandidates: 1, codeReferences: 2, declarations: 0, errors: 1, requests: 7 },
    applications: [{ id: "a1", name: app, environments: [], flags: [code, flag(`ui.${HOSTILE.pipe}`, "keep")], otherFlags: [] }],
    candidates: [{ applicationId: "a1", application: app, flag: code.name, verdict: "remove-from-code", value: HOSTILE.ciCommand, status: "new", firstSeen: FLAGS_AS_OF }],
    errors: [{ kind: "impressions", application: app, environment: `Prod ${HOSTILE.script}`, message: `${HOSTILE.ciCommand} ${HOSTILE.script} ${URL_TEXT}` }],
  };
}
