/**
 * Hand-made drift reports (cli/drift/report.ts) for the renderers' tests: one of every status with hostile server
 * text in its paths, values, names and errors, and an estate of many stacks with a few drifted, over several runs.
 */
import type { DriftedResource, DriftReport, StackReport, StackStatus } from "../../cli/drift/report";

/** Text that would break Markdown, a GFM table, HTML or a CI log if it were rendered as it is. */
export const HOSTILE = {
  pipe: "a|b||c",
  backticks: "```js\nx`y``",
  script: "<script>alert(1)</script>",
  ciCommand: "::error::x",
  vso: "##vso[task.setvariable variable=X]y",
  ansi: "\u001b[2J",
  lineBreak: "one\r\ntwo\u2028three",
  big: "v".repeat(100 * 1024),
} as const;

export const NOW = "2026-11-28T10:00:00.000Z";
const EARLIER = "2026-11-20T08:00:00.000Z";
const STATUSES: StackStatus[] = ["clean", "drifted", "error", "locked", "timeout"];

function stack(id: string, status: StackStatus, extra: Partial<StackReport> = {}): StackReport {
  const [folder, name] = id.split("#");
  return { id, folder, stack: name, status, durationMs: 1234, counts: { resources: 5, drifted: 0, paths: 0 }, ...extra };
}

/**
 * A report of `stacks` with its summary counted from them (the command's own counting, cli/drift, is not what
 * these tests are about: a renderer shows whatever summary it is given).
 */
function report(stacks: StackReport[], extra: Partial<DriftReport> = {}): DriftReport {
  const byStatus = Object.fromEntries(STATUSES.map((s) => [s, stacks.filter((x) => x.status === s).length])) as Record<StackStatus, number>;
  const resources = stacks.flatMap((s) => s.resources ?? []);
  const paths = resources.flatMap((r) => r.paths);
  const newPaths = paths.filter((p) => p.status === "new").length;
  const summary = { stacks: stacks.length, ...byStatus, driftedResources: resources.length, driftedPaths: paths.length, newPaths, resolvedPaths: 0 };
  const sorted = [...stacks].sort((a, b) => (a.id < b.id ? -1 : 1));
  return { schemaVersion: 1, generatedAt: NOW, toolVersion: "0.1.0", summary, stacks: sorted, causes: [], resolved: [], ...extra };
}

/** A drifted resource whose every path's name and value is one of HOSTILE's texts. */
function hostileResource(): DriftedResource {
  const paths = Object.entries(HOSTILE).map(([name, text]) => ({
    path: `tags["${name}"]${name === "pipe" || name === "script" || name === "ciCommand" ? text : ""}`,
    kind: "update" as const,
    declared: "safe",
    actual: text,
    changedBy: name === "script" ? text : "alice@example.com",
    changedAt: "2026-11-24T10:02:11Z",
    firstSeen: name === "big" ? EARLIER : NOW,
    status: name === "big" ? ("known" as const) : ("new" as const),
  }));
  return {
    urn: `urn:pulumi:prod::app::cloudbees:index:Flag::${HOSTILE.script}`,
    type: "cloudbees:index:Flag",
    name: HOSTILE.script,
    op: "update",
    paths,
    truncatedPaths: 3,
    notes: [`changed outside this stack by ${HOSTILE.ciCommand}`],
  };
}

/** A clean stack, a drifted one with hostile text everywhere, an error, a locked one and a timeout. */
export function hostileReport(): DriftReport {
  const drifted = hostileResource();
  const plain: DriftedResource = {
    urn: "urn:pulumi:prod::app::cloudbees:index:FlagConfiguration::checkout",
    type: "cloudbees:index:FlagConfiguration",
    name: "checkout",
    op: "update",
    paths: [{ path: "enabled", kind: "update", declared: true, actual: false, firstSeen: EARLIER, status: "known" }],
  };
  return report(
    [
      stack("app#dev", "clean"),
      stack("app#prod", "drifted", { counts: { resources: 5, drifted: 2, paths: 11 }, resources: [plain, drifted] }),
      stack(`broken#${HOSTILE.pipe}`, "error", { error: `${HOSTILE.ciCommand}\n${HOSTILE.script} ${HOSTILE.ansi}` }),
      stack("app#staging", "locked", { error: "the stack is locked by another update" }),
      stack("slow#prod", "timeout", { error: "no answer in 600 s" }),
    ],
    {
      causes: [
        {
          key: `cloudbees:index:Flag ${HOSTILE.pipe}`,
          type: "cloudbees:index:Flag",
          path: HOSTILE.pipe,
          actual: HOSTILE.script,
          count: 2,
          members: [`app#prod ${drifted.urn}`, `app#prod ${plain.urn}`],
          summary: `${HOSTILE.backticks} on 2 flags`,
        },
      ],
      resolved: [{ stack: "app#prod", urn: plain.urn, path: HOSTILE.ciCommand, firstSeen: EARLIER }],
    },
  );
}

/**
 * `stacks` stacks of about five resources, `drifted` of them drifted (one path new, one known) and one an error, as
 * run at `generatedAt`.
 */
export function estateReport(stacks: number, drifted: number, generatedAt = NOW): DriftReport {
  const list: StackReport[] = [];
  for (let i = 0; i < stacks; i++) {
    const id = `stacks/team-${String(i).padStart(3, "0")}#prod`;
    if (i === stacks - 1) {
      list.push(stack(id, "error", { error: "error: no Pulumi.yaml in stacks/team" }));
    } else if (i % Math.max(1, Math.floor(stacks / Math.max(drifted, 1))) === 0 && list.filter((s) => s.status === "drifted").length < drifted) {
      const type = list.filter((s) => s.status === "drifted").length % 2 === 0 ? "cloudbees:index:Flag" : "cloudbees:index:ControllerConfiguration";
      const resource: DriftedResource = {
        urn: `urn:pulumi:prod::team-${i}::${type}::checkout-${i}`,
        type,
        name: `checkout-${i}`,
        op: "update",
        paths: [
          { path: "description", kind: "update", declared: "as declared", actual: "changed by hand", firstSeen: EARLIER, status: "known" },
          { path: "enabled", kind: "update", declared: true, actual: false, changedBy: "alice@example.com", changedAt: generatedAt, firstSeen: generatedAt, status: "new" },
        ],
      };
      list.push(stack(id, "drifted", { counts: { resources: 5, drifted: 1, paths: 2 }, resources: [resource] }));
    } else {
      list.push(stack(id, "clean"));
    }
  }
  const flags = list.flatMap((s) => (s.resources ?? []).filter((r) => r.type === "cloudbees:index:Flag").map((r) => `${s.id} ${r.urn}`));
  const causes = flags.length === 0 ? [] : [
    { key: "cloudbees:index:Flag enabled false", type: "cloudbees:index:Flag", path: "enabled", actual: false, count: flags.length, members: flags, summary: `enabled switched off on ${flags.length} flags` },
  ];
  const resolved = [{ stack: list[1].id, urn: `urn:pulumi:prod::team-1::cloudbees:index:Flag::checkout-1`, path: "description", firstSeen: EARLIER }];
  const done = report(list, { generatedAt, causes, resolved });
  return { ...done, summary: { ...done.summary, resolvedPaths: resolved.length } };
}
