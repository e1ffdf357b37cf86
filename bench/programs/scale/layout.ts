/**
 * The scale program's objects, shared by the program (bench/programs/scale/index.ts) and the bench
 * (bench/scale.ts: the emulator's bundles and controllers, and the same writes sent directly).
 *
 * `count` resources in units of five: a BundleAvailability by regex, a BundleAvailability by controllers, a
 * ControllerBundleAssignment (its controller to the bundle made available to it), a Flag and its FlagConfiguration
 * (in Production or Staging, alternately); plus the Application and its two Environments they need.
 */
export const FOLDERS = 20;
export const ENVIRONMENTS = ["Production", "Staging"];

export const unitsOf = (count: number) => Math.floor(count / 5);
const pad = (i: number) => String(i).padStart(4, "0");
/** The bundle a regex makes available. */
export const regexBundle = (i: number) => `r${pad(i)}`;
/** The bundle a list of controllers makes available (the unit's controller and the next one). */
export const listBundle = (i: number) => `k${pad(i)}`;
export const controller = (i: number) => `folder-${i % FOLDERS}/c${pad(i)}`;
export const regexOf = (i: number) => `folder-${i % FOLDERS}/.*`;
export const controllersOf = (i: number, units: number) => [controller(i), controller((i + 1) % units)];
export const flagName = (i: number) => `scale.flag${pad(i)}`;
export const environmentOf = (i: number) => ENVIRONMENTS[i % ENVIRONMENTS.length]!;
export const configurationOf = (i: number) => ({ value: [{ option: true, percentage: (i * 5) % 100 }], labels: ["scale"] });

/** The emulator's bundles and controllers for `count` resources. */
export function emulatorObjects(count: number): { bundles: string[]; controllers: string[] } {
  const units = unitsOf(count);
  const range = Array.from({ length: units }, (_, i) => i);
  return { bundles: [...range.map(regexBundle), ...range.map(listBundle)], controllers: range.map(controller) };
}
