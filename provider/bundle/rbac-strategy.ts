import type { FileMap } from "./files";
import { mergeJcascFiles } from "./jcasc";
import type { BundleMessage } from "./messages";
import type { CascNode, JcascMergeStrategy } from "./yaml-reader";

// The part of the controller plugin's RBAC validator (RbacValidatorExtension, RbacValidatorExtensionTest
// "invalid-strategy") that needs no running instance: a bundle with an rbac section whose jcasc configures another
// authorization strategy is refused, as the reload would fail. What needs the instance stays out: no strategy in
// the jcasc files (the instance's current one decides) and permissions the instance has not registered.

/**
 * The names JCasC resolves to CloudBees' role-based strategy (RoleMatrixAuthorizationStrategyImpl): its @Symbol,
 * then the names JCasC derives from the class (configuration-as-code-plugin DescribableAttribute.getSymbols).
 */
export const RBAC_STRATEGY_NAMES: readonly string[] = [
  "cloudBeesRoleBasedAccessControl",
  "roleMatrix",
  "roleMatrixAuthorizationStrategy",
  "roleMatrixAuthorizationStrategyImpl",
];

interface ConfiguredStrategy {
  name: string;
  file: string;
  line: number;
}

/**
 * The strategy `jenkins.authorizationStrategy` names in merged jcasc: a symbol (`"unsecured"`) or a mapping of one
 * symbol to its settings (`globalMatrix: {...}`). Undefined when unset, null, or of a shape JCasC itself refuses.
 */
export function configuredStrategy(jcasc: CascNode | null): ConfiguredStrategy | undefined {
  const jenkins = jcasc?.kind === "map" ? jcasc.entries.get("jenkins") : undefined;
  const strategy = jenkins?.kind === "map" ? jenkins.entries.get("authorizationStrategy") : undefined;
  if (strategy === undefined) return undefined;
  const at = { file: strategy.file, line: strategy.line };
  if (strategy.kind === "scalar") return typeof strategy.value === "string" ? { name: strategy.value, ...at } : undefined;
  if (strategy.kind === "map" && strategy.entries.size === 1) return { name: [...strategy.entries.keys()][0]!, ...at };
  return undefined;
}

/** The ERROR `[RBAC]` for an rbac section with another strategy configured, or undefined. */
export function rbacStrategyProblem(jcasc: CascNode | null): BundleMessage | undefined {
  const strategy = configuredStrategy(jcasc);
  if (strategy === undefined || RBAC_STRATEGY_NAMES.includes(strategy.name)) return undefined;
  return {
    level: "ERROR",
    code: "RBAC",
    message:
      `The authorization strategy that will be configured is not RoleMatrixAuthorizationStrategy: jenkins.authorizationStrategy is '${strategy.name}' ` +
      `in '${strategy.file}' line ${strategy.line}, and an RBAC section needs cloudBeesRoleBasedAccessControl.`,
    file: strategy.file,
    line: strategy.line,
  };
}

/**
 * What an inheritance chain adds: the effective bundle has an rbac section (any level's) and its jcasc (every
 * level's, parent first, under the effective strategy) configures another strategy, which the bundle's own files do
 * not show on their own (when they do, its own check reports it). `files` holds the levels' jcasc files under
 * `<level>/<file>`, as the effective bundle lays them out; `rbacLevels` names the levels with an rbac section.
 */
export function inheritedRbacStrategyProblem(
  files: FileMap,
  jcascList: readonly string[],
  strategy: JcascMergeStrategy,
  rbacLevels: readonly string[],
  ownLevel: string,
): BundleMessage[] {
  if (rbacLevels.length === 0) return [];
  const problem = rbacStrategyProblem(mergeJcascFiles(files, jcascList, strategy).node);
  if (!problem) return [];
  const reportedByOwnCheck = rbacLevels.includes(ownLevel) && problem.file?.split("/")[0] === ownLevel;
  return reportedByOwnCheck ? [] : [problem];
}
