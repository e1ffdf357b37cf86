import { isMapping } from "./descriptor";
import { itemToYamlObject, type ItemTree } from "./item-tree";
import type { RunningConfiguration } from "./running-configuration";

// Which configuration files a controller's settings live in, as the Job Configuration History plugin sees them
// (jenkinsci/job-config-history-plugin, JobConfigHistorySaveableListener + FileHistoryDao.saveItem): every XML file
// saved at the top of the Jenkins home is a "system" history of its own, named by the file without `.xml`; an item's
// config.xml has a per-item history. A save that leaves a file as it was records nothing (skipDuplicateHistory), a
// plugin installation saves no configuration file the plugin keeps (UpdateCenter.xml is in its DEFAULT_EXCLUDE).
//
// The files, from what a controller runs (jenkins.yaml as JCasC writes it):
//   - `config`: Jenkins' own config.xml, the `jenkins:` root (system message, executors, security realm, ...),
//     except `nodes` (each agent's own nodes/<name>/config.xml), `proxy` (proxy.xml), `updateCenter`
//     (hudson.model.UpdateCenter.xml, excluded) and `remotingSecurity` (a file under secrets/);
//   - `jenkins.model.JenkinsLocationConfiguration`: `unclassified.location` (the descriptor's file is its class name);
//   - `credentials`: the `credentials:` root (the credentials plugin's SystemCredentialsProvider, credentials.xml);
//   - `nectar-rbac`: rbac.yaml (CloudBees RBAC keeps $JENKINS_HOME/nectar-rbac.xml, CloudBees KB "I had to disable
//     security momentarily and now I have lost all my RBAC setup");
//   - any other `unclassified.<symbol>`, `tool.<symbol>`, `security.<symbol>`, ...: a descriptor's file is named after
//     its Java class, which a symbol does not tell; the emulator names it `<root>.<symbol>` as a stand-in.
// A file's revision keeps the value it was saved from; `configOutput?type=raw` shows it as the emulator's own XML,
// secret fields encrypted at each answer (a real history keeps them encrypted, never in clear).

/** A configuration file as saved: its root element and the value below it. */
export interface SavedFile {
  root: string;
  value: unknown;
}

/** jenkins: keys that Jenkins keeps outside config.xml. */
const OUTSIDE_CONFIG: Record<string, string | null> = { nodes: null, proxy: "proxy", updateCenter: null, remotingSecurity: null };

/** The system files (name without `.xml`) and their content, of what a controller runs. */
export function systemFiles(running: RunningConfiguration): Map<string, SavedFile> {
  const out = new Map<string, SavedFile>();
  const add = (name: string, root: string, value: unknown) => {
    if (value !== undefined && value !== null) out.set(name, { root, value: structuredClone(value) });
  };
  for (const [root, section] of Object.entries(running.jenkins)) {
    if (!isMapping(section)) continue;
    if (root === "jenkins") {
      const own = Object.fromEntries(Object.entries(section).filter(([k]) => !(k in OUTSIDE_CONFIG)));
      add("config", "hudson", own);
      for (const [key, file] of Object.entries(OUTSIDE_CONFIG)) if (file !== null) add(file, key, section[key]);
    } else if (root === "credentials") {
      add("credentials", "com.cloudbees.plugins.credentials.SystemCredentialsProvider", section);
    } else {
      for (const [symbol, value] of Object.entries(section)) {
        const name = root === "unclassified" && symbol === "location" ? "jenkins.model.JenkinsLocationConfiguration" : `${root}.${symbol}`;
        add(name, name, value);
      }
    }
  }
  if (running.rbac !== undefined) add("nectar-rbac", "nectar.plugins.rbac.strategy.RoleMatrixAuthorizationPlugin", running.rbac);
  return out;
}

/** Each item's config.xml, by full name. */
export function itemFiles(items: ItemTree): Map<string, SavedFile> {
  const out = new Map<string, SavedFile>();
  for (const fullName of items.fullNames()) {
    const node = items.find(fullName)!;
    const { items: _children, ...own } = itemToYamlObject(node);
    out.set(fullName, { root: String(node.kind), value: structuredClone(own) });
  }
  return out;
}

/** Whether a save of `next` over `previous` changes the file (a save that changes nothing is not recorded). */
export function sameFile(previous: SavedFile | undefined, next: SavedFile): boolean {
  return previous !== undefined && previous.root === next.root && JSON.stringify(previous.value) === JSON.stringify(next.value);
}

/** The file as `configOutput` shows it: XML, every secret field encrypted anew. */
export function fileText(file: SavedFile, encrypt: (plain: string) => string): string {
  return `<?xml version='1.1' encoding='UTF-8'?>\n${element(file.root, file.value, encrypt, "", undefined)}\n`;
}

/** Fields a Jenkins configuration file holds encrypted (hudson.util.Secret): never in clear in a history. */
const SECRET_FIELD = /(password|passphrase|secret|secretbytes|privatekey|token|apikey)$/i;

const ELEMENT_NAME = /^[A-Za-z_][\w.-]*$/;

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function element(name: string, value: unknown, encrypt: (plain: string) => string, indent: string, field: string | undefined): string {
  const tag = ELEMENT_NAME.test(name) ? name : "entry";
  const attribute = tag === name ? "" : ` key="${escapeXml(name)}"`;
  if (Array.isArray(value)) {
    const inner = value.map((v) => element("entry", v, encrypt, `${indent}  `, field)).join("\n");
    return `${indent}<${tag}${attribute}>\n${inner}\n${indent}</${tag}>`;
  }
  if (isMapping(value)) {
    const inner = Object.entries(value).map(([k, v]) => element(k, v, encrypt, `${indent}  `, k)).join("\n");
    return inner === "" ? `${indent}<${tag}${attribute}/>` : `${indent}<${tag}${attribute}>\n${inner}\n${indent}</${tag}>`;
  }
  const text = value === null || value === undefined ? "" : String(value);
  const shown = field !== undefined && SECRET_FIELD.test(field) && text !== "" ? encrypt(text) : text;
  return `${indent}<${tag}${attribute}>${escapeXml(shown)}</${tag}>`;
}
