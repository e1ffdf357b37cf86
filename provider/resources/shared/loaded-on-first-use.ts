import type { ResourceController } from "./types";

/**
 * A controller whose module loads at its first call. A provider host serves the kinds its program declares, often
 * one: loading all sixteen controllers (and the clients, bundle toolkit and rules behind them) made the first
 * `check` of every `pulumi preview` pay for all of them (issue 30). A load that fails throws inside the call, where
 * `guarded` turns it into a check failure or an error naming the method.
 */
export function loadedOnFirstUse(load: () => ResourceController): ResourceController {
  let loaded: ResourceController | undefined;
  const controller = () => (loaded ??= load());
  return {
    check: (olds, news) => controller().check(olds, news),
    diff: (id, olds, news) => controller().diff(id, olds, news),
    create: (inputs) => controller().create(inputs),
    read: (id, props) => controller().read(id, props),
    update: (id, olds, news) => controller().update(id, olds, news),
    delete: (id, props) => controller().delete(id, props),
  };
}
