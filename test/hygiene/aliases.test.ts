// The spellings a flag's name takes in code (provider/hygiene/aliases.ts): the case transforms of
// ld-find-code-refs' docs/ALIASES.md (camelcase, snakecase, kebabcase, uppersnakecase), of the whole name and of a
// namespaced name's last segment, and literal aliases.
import { aliasesOf, inCase, wordsOf } from "../../provider/hygiene/aliases";

describe("aliases", () => {
  it("splits words at separators and case changes, digits kept with the word before", () => {
    expect(wordsOf("checkout.newFlow")).toEqual(["checkout", "new", "Flow"]);
    expect(wordsOf("HTMLParser_v2-beta")).toEqual(["HTML", "Parser", "v2", "beta"]);
    expect(wordsOf("flag-017-search")).toEqual(["flag", "017", "search"]);
    expect(["camelCase", "snake_case", "kebab-case", "UPPER_SNAKE"].map((s) => inCase("checkout.new-flow", s as never))).toEqual([
      "checkoutNewFlow",
      "checkout_new_flow",
      "checkout-new-flow",
      "CHECKOUT_NEW_FLOW",
    ]);
  });

  it("gives each flag its name, literal aliases, case transforms and its last segment's, each spelling once", () => {
    expect(aliasesOf(["checkout.newFlow"], { literal: { "checkout.newFlow": ["isNewFlowOn", "checkoutNewFlow"] } }).map((a) => `${a.text} ${a.kind}`)).toEqual([
      "checkout.newFlow name",
      "isNewFlowOn literal",
      "checkoutNewFlow literal", // also the camelCase transform: listed once, as the user's
      "checkout_new_flow snake_case",
      "checkout-new-flow kebab-case",
      "CHECKOUT_NEW_FLOW UPPER_SNAKE",
      "newFlow segment",
      "new_flow segment snake_case",
      "new-flow segment kebab-case",
      "NEW_FLOW segment UPPER_SNAKE",
    ]);
    expect(aliasesOf(["checkout.newFlow", "plain"], { cases: [], segments: false }).map((a) => a.text)).toEqual(["checkout.newFlow", "plain"]);
    expect(() => aliasesOf(["x"], { cases: ["Title Case" as never] })).toThrow('unknown case style "Title Case": one of camelCase, snake_case, kebab-case, UPPER_SNAKE');
  });
});
