/**
 * The configuration file of a compared path, as the Job Configuration History plugin names a system history (the
 * file at the top of the Jenkins home, without `.xml`: jenkinsci/job-config-history-plugin, JobConfigHistoryRootAction
 * `getSystemConfigs`, FileHistoryDao `getSystemHistory`), or why the history cannot tell who changed the path.
 *
 * Where a setting lives is Jenkins' and its plugins' choice, not the path's: only these are known for sure.
 * - `jenkins.yaml: jenkins.*`: Jenkins' own config.xml (`config`), except what Jenkins keeps elsewhere: `nodes` (each
 *   agent's nodes/<name>/config.xml, a history of its own), `proxy` (proxy.xml), `updateCenter` (UpdateCenter.xml, in
 *   the plugin's DEFAULT_EXCLUDE) and `remotingSecurity` (a file under secrets/).
 * - `jenkins.yaml: unclassified.location.*`: jenkins.model.JenkinsLocationConfiguration.xml (a GlobalConfiguration
 *   keeps its file under its class name).
 * - `jenkins.yaml: credentials.*`: credentials.xml (the credentials plugin's SystemCredentialsProvider).
 * - `rbac.yaml: ...`: nectar-rbac.xml (CloudBees RBAC: "$JENKINS_HOME/nectar-rbac.xml", CloudBees KB).
 * Any other `unclassified`, `tool`, `security`, `appearance` ... setting is in its descriptor's own file, named by a
 * Java class the path does not tell: unknown, never guessed. An item's changes are in its own history (one request per
 * item: not read); a plugin installed or updated saves no configuration file the history records.
 */

export type HistoryFile = { file: string } | { none: string };

const OUTSIDE_CONFIG: Record<string, string | null> = { nodes: null, proxy: "proxy", updateCenter: null, remotingSecurity: null };

/** A plain segment at the start of a path: `jenkins`, `systemMessage` (keys.ts writes other names quoted). */
const SEGMENTS = /^([A-Za-z0-9_$@-]+)(?:\.([A-Za-z0-9_$@-]+))?/;

export function historyFileOf(key: string): HistoryFile {
  const colon = key.indexOf(": ");
  const file = colon < 0 ? key : key.slice(0, colon);
  const path = colon < 0 ? "" : key.slice(colon + 2);
  if (file === "rbac.yaml") return { file: "nectar-rbac" };
  if (file === "items.yaml") return { none: "an item's changes are in the item's own history, which the drift check does not read (one request per controller)" };
  if (file === "plugins.yaml" || file === "plugin-catalog.yaml") return { none: "installing or updating a plugin saves no configuration file the history records" };
  if (file !== "jenkins.yaml") return { none: "the history records no file for it" };
  const m = SEGMENTS.exec(path);
  const [root, second] = [m?.[1], m?.[2]];
  if (root === "jenkins") {
    if (second === undefined) return { none: "the path stands for settings kept in several files" };
    if (!Object.hasOwn(OUTSIDE_CONFIG, second)) return { file: "config" };
    const elsewhere = OUTSIDE_CONFIG[second];
    return elsewhere ? { file: elsewhere } : { none: `Jenkins keeps ${second} outside its system configuration files` };
  }
  if (root === "credentials") return { file: "credentials" };
  if (root === "unclassified" && second === "location") return { file: "jenkins.model.JenkinsLocationConfiguration" };
  return { none: "the setting is saved in its plugin's own file, whose name the path does not tell" };
}
