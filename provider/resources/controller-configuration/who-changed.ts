/**
 * Who changed a drifted controller: one read of its configuration history per controller (URL and user) and
 * deployment, shared by every ControllerConfiguration watching it, and only when a drifted path lives in a file the
 * history records (a clean controller, or one whose only drift is a plugin, costs nothing). The read is bounded and has
 * a deadline (InstanceClient.readConfigHistory); whatever it answers, or fails with, the drift is still reported:
 * every path's author is then `unknown`, saying why (no plugin, an answer malformed, too large or too slow, ...).
 */
import type { ConfigHistoryRead } from "../../clients/config-history-types";
import { CONFIG_HISTORY_MAX_BYTES } from "../../clients/config-history-types";
import { providerState } from "../../config/state";
import { NotFoundError, ResponseTooLargeError, TimeoutError, UnexpectedResponseError } from "../../http/errors";
import { bounded } from "../../http/response-text";
import { messageOf } from "../shared/errors";
import type { InstanceConnection } from "../shared/instance";
import { type ChangedBy, changedByOf, UNKNOWN } from "./changed-by";
import { historyFileOf } from "./history-files";

type HistoryAnswer = { read: ConfigHistoryRead } | { failed: string };

function reads(): Map<string, Promise<HistoryAnswer>> {
  const state = providerState();
  return (state.controllerHistoryReads ??= new Map()) as Map<string, Promise<HistoryAnswer>>;
}

/** Why a history read failed, in words a drift note can carry. */
function failureOf(e: unknown): string {
  if (e instanceof NotFoundError) return "the controller does not answer jobConfigHistory: the Job Configuration History plugin is not installed";
  if (e instanceof TimeoutError) return `the configuration history did not answer in time (${bounded(messageOf(e), 200)})`;
  if (e instanceof ResponseTooLargeError) return `the configuration history's answer is larger than ${CONFIG_HISTORY_MAX_BYTES} bytes`;
  if (e instanceof UnexpectedResponseError) return `the configuration history's answer cannot be read (${bounded(messageOf(e), 200)})`;
  return `the configuration history could not be read (${bounded(messageOf(e), 200)})`;
}

/** The controller's history, read once per deployment whatever it answers (a failure is kept too: one request). */
function historyOf(conn: InstanceConnection): Promise<HistoryAnswer> {
  const key = `${conn.url}\n${conn.username}`;
  let answer = reads().get(key);
  if (!answer) {
    answer = conn.client.readConfigHistory().then(
      (read): HistoryAnswer => ({ read }),
      (e: unknown): HistoryAnswer => ({ failed: failureOf(e) }),
    );
    reads().set(key, answer);
  }
  return answer;
}

/** Who changed each drifted path (keys of the comparison); never throws. */
export async function whoChanged(conn: InstanceConnection, keys: readonly string[]): Promise<Map<string, ChangedBy>> {
  if (!keys.some((k) => "file" in historyFileOf(k))) return changedByOf(keys, { entries: [], unreadable: [], cut: false });
  const answer = await historyOf(conn);
  if ("read" in answer) return changedByOf(keys, answer.read);
  const out = changedByOf(keys, { entries: [], unreadable: [], cut: false });
  for (const key of keys) if ("file" in historyFileOf(key)) out.set(key, { by: UNKNOWN, note: answer.failed });
  return out;
}
