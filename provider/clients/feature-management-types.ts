// Plain types of the feature-management API's records (zod stays in feature-management-schemas.ts, out of the
// published declarations).

/** An application of the account: its name and its id. */
export interface Application {
  name: string;
  id: string;
}
