// What programs import from "pulumi-cloudbees": the typed clients and their errors (resources and functions join
// them as they are built).
export * from "../provider";
