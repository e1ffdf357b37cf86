/**
 * What the HTTP client needs of a response schema: zod's schemas have this shape. Public signatures name this
 * instead of zod's types, because zod's declarations do not compile in a project without `esModuleInterop`
 * (Pulumi's TypeScript template): zod stays inside the implementation.
 */
export interface ResponseSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: { issues: ReadonlyArray<SchemaIssue> } };
}

/** The first thing wrong with a value: where (a path of keys and indexes) and what. */
export interface SchemaIssue {
  path: ReadonlyArray<PropertyKey>;
  message: string;
}

/**
 * Compile-time proof that a declared type and a schema's output are one type, each assignable to the other:
 * `type Checked = [Same<z.infer<ReturnType<typeof fooSchema>>, Foo>]` fails to compile when they drift apart.
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Accepts only `true`: a list of `Same` checks that all hold. */
export type AllTrue<T extends readonly true[]> = T;
