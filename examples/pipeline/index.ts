// A CasC bundle pipeline, as a deployment pipeline runs it on every push to the bundle repository:
// lint and pre-validate the bundles, check them out on the operations center, make them available, assign them to
// controllers and reload those controllers. A bundle with an ERROR fails the validation, and since everything after
// it depends on it, nothing is checked out, assigned or reloaded.
//
// Stack config (besides the cloudbees:* settings):
//   pipeline:bundlesDir      the bundle location, relative to this folder (default ../bundles)
//   pipeline:controllers     controller full path -> { bundle, url }: which bundle each controller runs, and the
//                            controller's base URL (for the reload)
import * as pulumi from "@pulumi/pulumi";
import { bundlePipeline, type ControllerPlan } from "./bundle-pipeline";

const config = new pulumi.Config("pipeline");
const pipeline = bundlePipeline({
  bundlesDir: config.get("bundlesDir") ?? "../bundles",
  controllers: config.requireObject<Record<string, ControllerPlan>>("controllers"),
});

export const contentHash = pipeline.contentHash;
export const validationMessages = pipeline.validationMessages;
export const checkedOut = pipeline.checkedOut;
export const reloads = pipeline.reloads;
export const linkFiles = pipeline.linkFiles;
