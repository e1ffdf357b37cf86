// Validation messages in the form the operations center and controllers write them:
// `<LEVEL> - [<CODE>] - <text>` (casc-bundle-validate, validation logs, check-bundle-update).

export type Level = "INFO" | "WARNING" | "ERROR";

/** Tags of the controller plugin's validators, as they appear in message strings. */
export type MessageCode =
  | "APIVAL"
  | "VERSIONVAL"
  | "DESCVAL"
  | "STRUCTURE"
  | "SCHEMA"
  | "CATALOGVAL"
  | "CONTVAL"
  | "JCASCSTRATEGY"
  | "ITEMSTRATEGY"
  | "JCASC"
  | "PLUGINVAL"
  | "RBAC"
  | "ITEMS";

/** One message, structured. Optional keys are left out rather than undefined, so the value is plain JSON. */
export interface BundleMessage {
  level: Level;
  code: MessageCode;
  /** The text, without the level and code prefix. */
  message: string;
  /** Posix path, inside the bundle, of the file the message is about. */
  file?: string;
  /** 1-based line in `file`, where known (YAML syntax errors). */
  line?: number;
}

/** `[<CODE>] - <text>`: a message as the plugin's Validation objects hold it (validation results' `message`). */
export function taggedMessage(m: Pick<BundleMessage, "code" | "message">): string {
  return `[${m.code}] - ${m.message}`;
}

/** `<LEVEL> - [<CODE>] - <text>`: the level, then the tagged message (validation logs, validation-messages). */
export function formatMessage(m: Pick<BundleMessage, "level" | "code" | "message">): string {
  return `${m.level} - ${taggedMessage(m)}`;
}

/** validationCode of validation result objects (validate-uploaded-bundle, pre-validate-bundle) for each tag. */
export function validationCodeOf(code: MessageCode): string {
  const codes: Record<MessageCode, string> = {
    APIVAL: "BUNDLE_API",
    VERSIONVAL: "BUNDLE_VERSION",
    DESCVAL: "DESCRIPTOR",
    STRUCTURE: "BUNDLE_STRUCTURE",
    SCHEMA: "SCHEMA",
    CATALOGVAL: "PLUGIN_CATALOG",
    CONTVAL: "BUNDLE_CONTENT",
    JCASCSTRATEGY: "BUNDLE_JCASC_STRATEGY",
    ITEMSTRATEGY: "BUNDLE_ITEM_STRATEGY",
    JCASC: "JCASC_CONFIGURATION",
    PLUGINVAL: "PLUGIN_AVAILABLE",
    RBAC: "RBAC_CONFIGURATION",
    ITEMS: "ITEMS_DEFINITION",
  };
  return codes[code];
}

/** The server's `quiet=true`: only WARNING and ERROR. */
export function applyQuiet<T extends { level: Level }>(messages: T[], quiet: boolean): T[] {
  return quiet ? messages.filter((m) => m.level !== "INFO") : messages;
}

export function countLevels(messages: { level: Level }[]): { errors: number; warnings: number; info: number } {
  return {
    errors: messages.filter((m) => m.level === "ERROR").length,
    warnings: messages.filter((m) => m.level === "WARNING").length,
    info: messages.filter((m) => m.level === "INFO").length,
  };
}
