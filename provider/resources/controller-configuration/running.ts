/**
 * What a controller runs, read once per deployment: check-bundle-update (the version in force, and the one waiting)
 * and core-casc-export/zipExport (its configuration). Every ControllerConfiguration of the process that watches the
 * same controller (URL and user) shares the reads, as the bundle resources share the bundle list; a reload by this
 * process forgets them, so that what is read after it reflects it.
 */
import type { BundleUpdateCheck } from "../../clients/casc-types";
import type { FileMap } from "../../bundle/files";
import { unzipFiles } from "../../bundle/zip";
import { providerState } from "../../config/state";
import type { InstanceConnection } from "../shared/instance";

export interface RunningConfiguration {
  update: BundleUpdateCheck;
  /** The export's files, by name (bundle.yaml lists them per section). */
  files: FileMap;
}

function reads(): Map<string, Promise<RunningConfiguration>> {
  const state = providerState();
  return (state.controllerReads ??= new Map()) as Map<string, Promise<RunningConfiguration>>;
}

const keyOf = (conn: InstanceConnection): string => `${conn.url}\n${conn.username}`;

async function readNow(conn: InstanceConnection): Promise<RunningConfiguration> {
  // In parallel: two GETs to one controller, neither depending on the other.
  const [update, zip] = await Promise.all([conn.client.checkBundleUpdate({ quiet: true }), conn.client.exportConfigurationZip()]);
  return { update, files: await unzipFiles(zip) };
}

/** The controller's update check and export, shared within the deployment; a failed read is not kept. */
export function readRunning(conn: InstanceConnection): Promise<RunningConfiguration> {
  const kept = reads();
  const key = keyOf(conn);
  let read = kept.get(key);
  if (!read) {
    read = readNow(conn);
    kept.set(key, read);
    read.catch(() => {
      if (kept.get(key) === read) kept.delete(key);
    });
  }
  return read;
}

/** After a reload (or an attempt whose outcome is unknown): the next read asks the controller again. */
export function forgetRunning(conn: InstanceConnection): void {
  reads().delete(keyOf(conn));
}
