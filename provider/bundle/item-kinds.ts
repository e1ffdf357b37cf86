/**
 * Item kinds of an items.yaml that are controllers: items of the operations center that the operations center runs
 * (`managedController`, as a real export names them: tsmp-falcon-platform/ci-bundle-utils
 * examples/offline-test-run/bundlecontent.yaml; `clientController` for connected ones). The emulator registers them
 * as controllers; the Items resource stops and deletes them on destroy.
 */
export const CONTROLLER_ITEM_KINDS: readonly string[] = ["managedController", "clientController"];
