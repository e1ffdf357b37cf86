import type { JCASC_MERGE_STRATEGIES } from "./descriptor";

// What loadBundle returns of bundle.yaml, as plain types (descriptor-schema.ts parses into them and proves at compile
// time that its output is exactly this): zod's types stay out of the published declarations.

/** `itemRemoveStrategy` of bundle.yaml (values checked case-insensitively by the shared rule). */
export interface RemoveStrategy {
  items?: string;
  rbac?: string;
}

/** bundle.yaml, checked: the keys of the spec and of the vendor's reference (unknown keys are dropped). */
export interface BundleDescriptor {
  apiVersion: number;
  /** Written quoted or not in real bundles: always text here. */
  id: string;
  description?: string;
  version: string;
  parent?: string;
  availabilityPattern?: string;
  allowCapExceptions?: boolean;
  jcascMergeStrategy?: (typeof JCASC_MERGE_STRATEGIES)[number];
  itemRemoveStrategy?: RemoveStrategy;
  /** Each section: the files or folders it lists, in order. */
  jcasc?: string[];
  plugins?: string[];
  catalog?: string[];
  rbac?: string[];
  items?: string[];
  variables?: string[];
}
