/**
 * The shape of a dynamic provider as the SDK's host calls it (@pulumi/pulumi/dynamic ResourceProvider), without
 * importing @pulumi/pulumi: the provider code loads in the host on every deployment and stays light.
 * Everything returned must be plain JSON (no undefined, Date, class instance or Output): the host turns it into a
 * protobuf Struct and fails with "Unexpected struct type" after the remote change was made.
 */

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type Props = Record<string, unknown>;

export interface CheckFailure {
  property: string;
  reason: string;
}

export interface CheckResult {
  inputs: Props;
  failures: CheckFailure[];
}

export interface DiffResult {
  /** Always set: left undefined, the engine would diff every input, `__provider` included (#12401). */
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
}

export interface CreateResult {
  id: string;
  outs: Props;
}

/**
 * What a read found: nothing when the object is gone (the engine then drops the resource from the state), else its
 * id, its outputs and the inputs that would produce what was read. The inputs are not optional: a refresh's outcome
 * is the provider's diff of the read inputs against the state's (pkg/resource/deploy/step.go, RefreshStep), so a read
 * without them would show no drift to `pulumi refresh --preview-only` (the drift command's refresh mode).
 */
export type ReadResult = { id?: undefined; props?: undefined; inputs?: undefined } | { id: string; props: Props; inputs: Props };

export interface UpdateResult {
  outs: Props;
}

export interface ResourceController {
  check(olds: Props, news: Props): Promise<CheckResult>;
  diff(id: string, olds: Props, news: Props): Promise<DiffResult>;
  create(inputs: Props): Promise<CreateResult>;
  read(id: string, props: Props): Promise<ReadResult>;
  update(id: string, olds: Props, news: Props): Promise<UpdateResult>;
  delete(id: string, props: Props): Promise<void>;
}
