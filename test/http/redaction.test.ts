/**
 * Issue 19, finding 6: the redactor learns a secret in O(1). Before, learn() searched an array for each secret and
 * sorted the whole list again: the second read of a 40,000-bundle list (80,000 strings) took 28 s of host CPU. Held
 * to a deadline that the old code missed by far.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { Redactor } from "../../provider/http/redaction";
import { assertBuiltPackage, REPO_ROOT } from "../resources/helpers";

describe("Redactor", () => {
  it("learns 80,000 secrets twice (a 40,000-bundle list read twice) within a deadline, and still scrubs them", () => {
    // In a child process killed at the deadline: the learning is synchronous, no jest timeout could stop it.
    assertBuiltPackage();
    const script = `
      const { Redactor } = require(${JSON.stringify(path.join(REPO_ROOT, "dist", "provider", "http", "redaction.js"))});
      const secrets = Array.from({ length: 80000 }, (_, i) => "bundle-token-" + i.toString(36).padStart(6, "0"));
      const redactor = new Redactor(["admin-password"]);
      redactor.learn(secrets);
      redactor.learn(secrets);
      process.stdout.write(redactor.redact("link " + secrets[79999] + " and admin-password"));`;
    const run = spawnSync(process.execPath, ["-e", script], { timeout: 5_000, encoding: "utf8" });
    expect(run.signal).toBeNull();
    expect(run.stdout).toBe("link [redacted] and [redacted]");
  });

  it("scrubs a secret that contains another whole", () => {
    const redactor = new Redactor(["abcd"]);
    redactor.learn(["xxabcdyy"]);
    expect(redactor.redact("token xxabcdyy and abcd")).toBe("token [redacted] and [redacted]");
  });

  it("ignores secrets shorter than 4 characters", () => {
    expect(new Redactor(["abc"]).redact("abc")).toBe("abc");
  });
});
