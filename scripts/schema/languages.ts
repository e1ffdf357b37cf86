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

export function languageSettings(_version: string): Record<string, unknown> {
  return {
    nodejs: {
      packageName: NODEJS_PACKAGE,
      packageDescription: PACKAGE_DESCRIPTION,
      dependencies: { "@pulumi/pulumi": "^3.216.0" },
      respectSchemaVersion: true,
    },
    python: {
      packageName: PYTHON_PACKAGE,
      requires: { pulumi: ">=3.216.0,<4.0.0" },
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
