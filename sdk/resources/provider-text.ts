/* istanbul ignore file */
import type { ProviderKind } from "../../provider/resources";

/**
 * Each kind's `__provider` text, written out: exactly what the SDK's closure serializer makes of the kind's provider
 * shell (provider-shell.ts), as `pulumi.dynamic.Resource` would store it. A program therefore runs no serializer:
 * that cost about 0.4 s of CPU for the first resource kind of every `pulumi preview` and `up` (the serializer loads
 * TypeScript's parser and opens an inspector session) and 30 ms for each further kind. The text is pinned: a change
 * shows as a diff on every resource of every stack (test/resources/sdk.test.ts checks that the serializer still
 * gives this text and that it equals test/fixtures/provider-shell-text.txt).
 */
const TEXT = `exports.handler = __f0;

var __provider = {configure: __f1, check: __f2, diff: __f3, create: __f4, read: __f5, update: __f6, delete: __f7};

function __f1(__0) {
  return (function() {
    with({ this: undefined, arguments: undefined }) {

return (req) => require("pulumi-cloudbees/provider").configure(req);

    }
  }).apply(undefined, undefined).apply(this, arguments);
}

function __f2(__0, __1) {
  return (function() {
    with({ kind: "<kind>", this: undefined, arguments: undefined }) {

return (olds, news) => require("pulumi-cloudbees/provider").resources[kind].check(olds, news);

    }
  }).apply(undefined, undefined).apply(this, arguments);
}

function __f3(__0, __1, __2) {
  return (function() {
    with({ kind: "<kind>", this: undefined, arguments: undefined }) {

return (id, olds, news) => require("pulumi-cloudbees/provider").resources[kind].diff(id, olds, news);

    }
  }).apply(undefined, undefined).apply(this, arguments);
}

function __f4(__0) {
  return (function() {
    with({ kind: "<kind>", this: undefined, arguments: undefined }) {

return (inputs) => require("pulumi-cloudbees/provider").resources[kind].create(inputs);

    }
  }).apply(undefined, undefined).apply(this, arguments);
}

function __f5(__0, __1) {
  return (function() {
    with({ kind: "<kind>", this: undefined, arguments: undefined }) {

return (id, props) => require("pulumi-cloudbees/provider").resources[kind].read(id, props);

    }
  }).apply(undefined, undefined).apply(this, arguments);
}

function __f6(__0, __1, __2) {
  return (function() {
    with({ kind: "<kind>", this: undefined, arguments: undefined }) {

return (id, olds, news) => require("pulumi-cloudbees/provider").resources[kind].update(id, olds, news);

    }
  }).apply(undefined, undefined).apply(this, arguments);
}

function __f7(__0, __1) {
  return (function() {
    with({ kind: "<kind>", this: undefined, arguments: undefined }) {

return (id, props) => require("pulumi-cloudbees/provider").resources[kind].delete(id, props);

    }
  }).apply(undefined, undefined).apply(this, arguments);
}

function __f0() {
  return (function() {
    with({ provider: __provider, this: undefined, arguments: undefined }) {

return () => provider;

    }
  }).apply(undefined, undefined).apply(this, arguments);
}
`;

export function providerText(kind: ProviderKind): string {
  return TEXT.replaceAll('kind: "<kind>"', `kind: ${JSON.stringify(kind)}`);
}

/** Whether `text` is one of this package's own `__provider` texts (the testing kit reuses a host only for those). */
export function isProviderText(text: string): boolean {
  const kind = /with\(\{ kind: "([A-Za-z]+)"/.exec(text)?.[1];
  return kind !== undefined && text === providerText(kind as ProviderKind);
}
