import { ConfigurationError } from "../http/errors";
import { basicCredentialProblem } from "../http/header-value";
import { HttpClient } from "../http/http-client";
import type { HttpOptions } from "../http/options";
import { Secret } from "../http/redaction";

export interface CascClientOptions extends HttpOptions {
  /** The instance's URL including its prefix, e.g. `https://ci.example.com/cjoc/`. */
  baseUrl: string;
  username: string;
  /** The user's API token (HTTP Basic `<username>:<apiToken>`). */
  apiToken: string;
}

/** An HttpClient that authenticates to an operations center or controller with HTTP Basic. */
export function cascHttpClient(options: CascClientOptions): HttpClient {
  const { username, apiToken } = options;
  if (typeof username !== "string" || username.trim() === "") {
    throw new ConfigurationError("username", "the user name is empty", "Give the user whose API token you use.");
  }
  if (typeof apiToken !== "string" || apiToken.trim() === "") {
    throw new ConfigurationError("apiToken", "the API token is empty", "Create one in the user's Security settings.");
  }
  const userProblem = basicCredentialProblem(username, "username");
  if (userProblem) throw new ConfigurationError("username", userProblem, "Give the user name as Jenkins shows it.");
  const tokenProblem = basicCredentialProblem(apiToken, "password");
  if (tokenProblem) throw new ConfigurationError("apiToken", tokenProblem, "Copy the API token again, without line breaks.");
  const pair = `${username}:${apiToken}`;
  const encoded = Buffer.from(pair, "utf8").toString("base64");
  const authorization = `Basic ${encoded}`;
  return new HttpClient(
    {
      baseUrlSetting: "baseUrl",
      baseUrl: options.baseUrl,
      authorization: new Secret(authorization),
      secrets: [apiToken, pair, encoded, authorization],
      authenticationHint: "Check the username and API token (a token stops working when it is revoked).",
      permissionHint:
        "The CasC API requires Overall/Administer: use the API token of an administrator (an anonymous request also gets 403).",
    },
    options,
  );
}
