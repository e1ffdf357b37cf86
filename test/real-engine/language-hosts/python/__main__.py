"""Stack outputs from the stack's config: a plain value, a secret from config, and a secret made by the program."""
import pulumi

config = pulumi.Config()
pulumi.export("message", f"{config.require('greeting')}, {pulumi.get_project()}/{pulumi.get_stack()}")
pulumi.export("token", config.require_secret("token"))
pulumi.export("hidden", pulumi.Output.secret("made-by-the-program"))
