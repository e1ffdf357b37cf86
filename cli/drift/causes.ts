/**
 * Drift grouped by cause: the same property path of the same resource type, changed to the same value, across
 * resources and stacks, is one row ("FlagConfiguration value[0].percentage = 75 on 4 resources in 4 stacks"). Our
 * types are one type whichever face declared them: the plugin's `cloudbees:index:Flag` and the dynamic provider's
 * `pulumi-nodejs:dynamic/cloudbees:Flag` change the same object on the service.
 */
import { typeNameOf } from "./warnings";
import type { Cause, StackReport } from "./report";
import { noun } from "../report/noun";

export function groupCauses(stacks: StackReport[]): Cause[] {
  const groups = new Map<string, Cause>();
  for (const s of stacks) {
    for (const r of s.resources ?? []) {
      for (const p of r.paths) {
        const type = causeType(r.type);
        const key = `${type} ${p.path} ${p.actual === undefined ? "(absent)" : JSON.stringify(p.actual)}`;
        let c = groups.get(key);
        if (!c) {
          c = { key, type, path: p.path, ...(p.actual !== undefined ? { actual: p.actual } : {}), count: 0, members: [], summary: "" };
          groups.set(key, c);
        }
        const member = `${s.id} ${r.urn}`;
        if (!c.members.includes(member)) c.members.push(member);
      }
    }
  }
  const causes = [...groups.values()];
  for (const c of causes) {
    c.members.sort();
    c.count = c.members.length;
    c.summary = summaryOf(c);
  }
  return causes.sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The schema's token for our types, from either face; any other type as it is. */
export function causeType(type: string): string {
  const ours = /^(?:cloudbees:index|pulumi-nodejs:dynamic\/cloudbees):(\w+)$/.exec(type);
  return ours ? `cloudbees:index:${ours[1]}` : type;
}

/** One line a person reads, in the words of the resource's type where it has some. */
function summaryOf(c: Cause): string {
  const stacks = new Set(c.members.map((m) => m.split(" ")[0])).size;
  const where = `${c.count} ${noun(c.count, "resource")}${stacks > 1 ? ` in ${stacks} stacks` : ""}`;
  const value = c.actual === undefined ? "removed" : short(JSON.stringify(c.actual));
  const typeName = typeNameOf(c.type);
  const configuration = /^configuration\["([^"]+)"\]\.?(.*)$/.exec(c.path);
  if (typeName === "ControllerConfiguration" && configuration) {
    // ControllerConfiguration's keys are "<file>: <path>" ("jenkins.yaml: jenkins.systemMessage"), or a file alone.
    const [key, rest] = [configuration[1]!, configuration[2]];
    const what = rest ? `${key}: ${rest}` : key.includes(": ") ? key : `${key} (whole file)`;
    return `${what} on ${c.count} ${noun(c.count, "controller")}`;
  }
  if (typeName === "FlagConfiguration") return `flag configuration ${c.path} ${value} on ${where}`;
  return `${typeName} ${c.path} ${value} on ${where}`;
}

function short(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
