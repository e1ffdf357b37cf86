import * as pulumi from "@pulumi/pulumi";

/**
 * Pulumi mocks that record every resource registration and answer as a create would: the inputs plus the given
 * outputs of the resource's type. Returns the list the registrations are recorded in.
 */
export async function useRecordingMocks(outputsByType: Record<string, Record<string, unknown>>): Promise<pulumi.runtime.MockResourceArgs[]> {
  const seen: pulumi.runtime.MockResourceArgs[] = [];
  await pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        seen.push(args);
        return { id: `${args.name}-id`, state: { ...args.inputs, ...(outputsByType[args.type] ?? {}) } };
      },
      call: () => ({}),
    },
    "project",
    "stack",
    false,
  );
  return seen;
}
