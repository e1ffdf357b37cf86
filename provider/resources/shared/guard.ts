import { bounded, MAX_MESSAGE_LENGTH } from "../../http/response-text";
import { messageOf } from "./errors";
import type { CheckResult, ResourceController } from "./types";

/**
 * What the provider host receives from every controller, whatever goes wrong inside:
 * - `check` never throws: an unexpected error becomes a failure (the rules of each check name the input; this is
 *   the net under them);
 * - every error message has a bounded length: the host sends it in gRPC trailers, and a message of a few hundred KB
 *   (a huge id quoted in it) is never delivered and leaves the host unable to answer later calls.
 */
export function guarded(controller: ResourceController): ResourceController {
  return {
    check: async (olds, news): Promise<CheckResult> => {
      try {
        return await controller.check(olds, news);
      } catch (e) {
        return {
          inputs: news,
          failures: [{ property: "", reason: bounded(`the inputs could not be checked: ${messageOf(e)}`, 1000) }],
        };
      }
    },
    diff: (id, olds, news) => boundErrors(() => controller.diff(id, olds, news)),
    create: (inputs) => boundErrors(() => controller.create(inputs)),
    read: (id, props) => boundErrors(() => controller.read(id, props)),
    update: (id, olds, news) => boundErrors(() => controller.update(id, olds, news)),
    delete: (id, props) => boundErrors(() => controller.delete(id, props)),
  };
}

async function boundErrors<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (e) {
    throw boundError(e);
  }
}

/** The error with its message (and a partial create's reasons) cut to MAX_MESSAGE_LENGTH; the same object. */
export function boundError(error: unknown): unknown {
  if (!(error instanceof Error)) return new Error(bounded(String(error), MAX_MESSAGE_LENGTH));
  if (error.message.length > MAX_MESSAGE_LENGTH) error.message = bounded(error.message, MAX_MESSAGE_LENGTH);
  const reasons = (error as { reasons?: unknown }).reasons;
  if (Array.isArray(reasons)) {
    (error as unknown as { reasons: unknown[] }).reasons = reasons.map((r) => bounded(String(r), MAX_MESSAGE_LENGTH));
  }
  return error;
}
