"""Runs a Python program of the docs under Pulumi's mocks (no engine, no provider): every resource it declares is
registered with the generated SDK's classes, whose arguments are checked (a misspelt or missing one raises), and
every registration is awaited, so that an error inside one fails the run. A resource's outputs are its inputs and,
for the outputs the schema says it always has, a placeholder of their type. Prints the resources registered.
Several programs run one after the other in this one process, each under fresh mocks (a Python start with pulumi
and the SDK imported costs about a second of CPU): each one's block starts `== <program.py>`, and one that fails
prints `!! <program.py>` and its traceback; the exit code is 1 when any failed.
Usage: python run_with_mocks.py <schema.json> <program.py>..."""
import asyncio
import json
import runpy
import sys
import traceback

import pulumi
from pulumi.runtime.stack import wait_for_rpcs

SCHEMA = json.load(open(sys.argv[1]))
PLACEHOLDERS = {"string": lambda name: name, "boolean": lambda _: False, "number": lambda _: 0, "array": lambda _: []}
registered = []


class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args: pulumi.runtime.MockResourceArgs):
        registered.append(f"{args.typ}::{args.name}")
        outputs = dict(args.inputs)
        resource = SCHEMA["resources"].get(args.typ, {})
        for key in resource.get("required", []):
            kind = resource["properties"][key].get("type", "string")
            outputs.setdefault(key, PLACEHOLDERS.get(kind, lambda _: None)(f"{args.name}-{key}"))
        return [f"{args.name}-id", outputs]

    def call(self, args: pulumi.runtime.MockCallArgs):
        return {}


failed = False
for program in sys.argv[2:]:
    registered = []
    pulumi.runtime.set_mocks(Mocks(), project="docs", stack="example", preview=False)
    try:
        runpy.run_path(program, run_name="__main__")
        asyncio.get_event_loop().run_until_complete(wait_for_rpcs())
    except BaseException:
        failed = True
        print(f"!! {program}\n{traceback.format_exc()}", file=sys.stderr)
        continue
    print(f"== {program}")
    print("\n".join(sorted(registered)))
sys.exit(1 if failed else 0)
