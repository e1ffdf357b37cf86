// `pulumi-cloudbees/provider`: what the SDK's provider shells load in Pulumi's provider host (`configure` and
// `resources.<kind>.<method>`), plus the public client API.
export * from "./api";
export * from "./resources";
export { configure, SETTINGS } from "./config";
