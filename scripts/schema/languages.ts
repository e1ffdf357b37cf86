/**
 * The schema's `language` section: how each language's SDK is named and what it requires, for
 * `pulumi package gen-sdk` (scripts/sdks.ts). The SDKs live in generated/sdk/<language>.
 */
export const PACKAGE_DESCRIPTION =
  "Manage CloudBees from Pulumi: the feature-flag service's applications API (applications, environments, flags, " +
  "their configuration per environment, target groups, team members) and the CI product's configuration-as-code " +
  "bundle API (bundle availability, assignments, the default bundle, validation, check-out, tokens, reloads, items).";

/** The Go module of the Go SDK (generated/sdk/go); its package is `<module>/cloudbees`. */
export const GO_MODULE = "github.com/pulumi-cloudbees/pulumi-cloudbees/generated/sdk/go";
/** The Node.js SDK's package name (the dynamic providers are the `pulumi-cloudbees` package itself). */
export const NODEJS_PACKAGE = "@pulumi-cloudbees/cloudbees";
export const PYTHON_PACKAGE = "pulumi_cloudbees";

/**
 * The lowest Pulumi SDK each generated SDK works with, as each SDK declares it; the real-engine tier runs a program on
 * each (test/real-engine/language-*-floor.test.ts), and `npm run pulumi-cli` fetches what those programs install.
 * - python: the generator of CLI 3.233.0 and later types an optional input as `pulumi.Input[Optional[T]]`, which the
 *   `pulumi` package unwraps from 3.231.0 on (pulumi/pulumi#22553, #22552); 3.230.0 fails at the first list input
 *   ("Unexpected type. Expected 'list'"). 3.231.0 is also the generator's own default (MinimumValidSDKVersion).
 * - go: `github.com/pulumi/pulumi/sdk/v3` 3.216.0 builds and vets the Go SDK (generated/sdk/go/go.mod requires it).
 * - nodejs: `@pulumi/pulumi` 3.216.0 type-checks and runs the Node.js SDK: the package's own peer range
 *   (`pulumi-sdk-lowest` in package.json).
 */
export const SDK_FLOORS = { python: "3.231.0", go: "3.216.0", nodejs: "3.216.0" } as const;

export function languageSettings(_version: string): Record<string, unknown> {
  return {
    nodejs: {
      packageName: NODEJS_PACKAGE,
      packageDescription: PACKAGE_DESCRIPTION,
      dependencies: { "@pulumi/pulumi": `^${SDK_FLOORS.nodejs}` },
      respectSchemaVersion: true,
    },
    python: {
      packageName: PYTHON_PACKAGE,
      requires: { pulumi: `>=${SDK_FLOORS.python},<4.0.0` },
      pyproject: { enabled: true },
      respectSchemaVersion: true,
    },
    go: {
      importBasePath: `${GO_MODULE}/cloudbees`,
      generateResourceContainerTypes: true,
      respectSchemaVersion: true,
    },
    csharp: {
      rootNamespace: "PulumiCloudBees",
      packageReferences: { Pulumi: "3.*" },
      respectSchemaVersion: true,
    },
    java: {
      basePackage: "com.pulumicloudbees",
    },
  };
}
