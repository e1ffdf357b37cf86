// Stack outputs from the stack's config: a plain value, a secret from config, and a secret made by the program.
// go.mod is written by the test, requiring sdk/v3 at the CLI's version.
package main

import (
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		ctx.Export("message", pulumi.String(fmt.Sprintf("%s, %s/%s", cfg.Require("greeting"), ctx.Project(), ctx.Stack())))
		ctx.Export("token", cfg.RequireSecret("token"))
		ctx.Export("hidden", pulumi.ToSecret(pulumi.String("made-by-the-program")))
		return nil
	})
}
