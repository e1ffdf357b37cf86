import { ConfigurationError } from "../http/errors";
import { HttpClient } from "../http/http-client";
import type { HttpOptions } from "../http/options";
import { Secret } from "../http/redaction";
import { applicationListSchema, applicationSchema, type Application } from "./feature-management-schemas";
import { requireSegment, requireText } from "./inputs";

export interface FeatureManagementClientOptions extends HttpOptions {
  /** Default `https://x-api.rollout.io`. */
  baseUrl?: string;
  /** API token of the account (sent as `authorization: Bearer <token>`). */
  token: string;
  /**
   * Least time between the end of one request and the start of the next, shared by every client of the same
   * base URL on this machine (every process: a lock file in the OS temp folder). The service allows one request per
   * second per client IP. Default 1000 ms.
   */
  minRequestIntervalMs?: number;
}

export const DEFAULT_FEATURE_MANAGEMENT_URL = "https://x-api.rollout.io";

/** The feature-flag service's applications API (`/public-api/applications`). */
export class FeatureManagementClient {
  private readonly http: HttpClient;

  constructor(options: FeatureManagementClientOptions) {
    const token = options.token;
    if (typeof token !== "string" || token.trim() === "") {
      throw new ConfigurationError("token", "the feature-flag API token is empty", "Give the account's API token.");
    }
    const authorization = `Bearer ${token}`;
    this.http = new HttpClient(
      {
        baseUrlSetting: "baseUrl",
        baseUrl: options.baseUrl ?? DEFAULT_FEATURE_MANAGEMENT_URL,
        authorization: new Secret(authorization),
        secrets: [token, authorization],
        authenticationHint: "Check the feature-flag API token: generating a new token revokes the old one.",
        permissionHint: "The token's owner lacks permission on this account.",
        minIntervalMs: options.minRequestIntervalMs ?? 1000,
      },
      options,
    );
  }

  /** Every application of the account. */
  async listApplications(): Promise<Application[]> {
    return this.http.json(
      { operation: "listing applications", method: "GET", path: "public-api/applications", idempotency: "safe" },
      applicationListSchema,
    );
  }

  /** Creates an application. Never retried after it may have reached the server: that could create two. */
  async createApplication(name: string): Promise<Application> {
    const operation = `creating application "${name}"`;
    const applicationName = requireText(name, "name", operation);
    return this.http.json(
      {
        operation,
        method: "POST",
        path: "public-api/applications",
        body: { contentType: "application/json", data: JSON.stringify({ applicationName }) },
        idempotency: "unsafe",
      },
      applicationSchema,
    );
  }

  async getApplication(applicationId: string): Promise<Application> {
    const operation = `reading application "${applicationId}"`;
    const id = requireSegment(applicationId, "applicationId", operation);
    return this.http.json(
      {
        operation,
        method: "GET",
        path: `public-api/applications/${encodeURIComponent(id)}`,
        idempotency: "safe",
        notFoundHint: "No application has this id in the token's account.",
      },
      applicationSchema,
    );
  }

  async close(): Promise<void> {
    return this.http.close();
  }
}
