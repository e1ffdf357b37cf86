// A list answer read item by item, whatever the service (feature flags, CasC). Plain types, no zod: they reach the
// published declarations (see casc-types.ts).

/**
 * A list answer read one item at a time: one record the parser does not understand never hides the others (the
 * flag configurations of an environment share one experiment list, so one unreadable experiment would otherwise stop
 * the refresh of every configuration there; one bundle would stop every bundle resource).
 */
export interface ReadableList<T> {
  /** The items that were read, in the server's order. */
  items: T[];
  /** The items that were not, each with its position, its name when it has one, and why. */
  unreadable: UnreadableItem[];
}

export interface UnreadableItem {
  /** Its position in the answer. */
  index: number;
  /** Its name (an experiment's `flag`, a flag's, target group's or bundle's `name`), when that field is a string. */
  name?: string;
  /** What is wrong, with the field: `conditions[0].group.operator: Invalid option: ...`. */
  problem: string;
}
