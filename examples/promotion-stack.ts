import type { Emulator, EmulatorOptions } from "../emulator";
import { secret } from "../testing";

/** The production controller of the promotion example, and its name in production's `instances`. */
export const PROMOTION_CONTROLLER = "team-a/controller-a";
export const PROMOTION_INSTANCE = "team-a";

/**
 * The production operations center of the promotion example: its own administrator, and a controller outside its
 * single sign-on that takes only its own user and API token (emulator option controllerUsers).
 */
export const PRODUCTION_USERS = {
  admin: { username: "prod-admin", apiToken: "prod-admin-token-4e8a61", admin: true },
  controller: { username: "team-a-admin", apiToken: "team-a-controller-token-93b07c", admin: true },
};

export function productionEmulatorOptions(): EmulatorOptions {
  return { users: [PRODUCTION_USERS.admin], controllerUsers: { [PROMOTION_CONTROLLER]: [PRODUCTION_USERS.controller] } };
}

/**
 * Stack config of the promotion example against two emulators, as the `pulumi config set --path` commands of
 * examples/promotion/index.ts would write it: one `cloudbees:connections` object, a secret because tokens are in it.
 */
export function promotionStackConfig(staging: Emulator, production: Emulator): Record<string, unknown> {
  return {
    "cloudbees:connections": secret({
      staging: {
        operationsCenterUrl: staging.operationsCenterUrl,
        username: staging.credentials.admin.username,
        apiToken: staging.credentials.admin.apiToken,
      },
      production: {
        operationsCenterUrl: production.operationsCenterUrl,
        username: PRODUCTION_USERS.admin.username,
        apiToken: PRODUCTION_USERS.admin.apiToken,
        instances: {
          [PROMOTION_INSTANCE]: {
            url: production.controllerUrls[PROMOTION_CONTROLLER],
            username: PRODUCTION_USERS.controller.username,
            apiToken: PRODUCTION_USERS.controller.apiToken,
          },
        },
      },
    }),
  };
}
