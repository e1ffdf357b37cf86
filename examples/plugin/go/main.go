// Feature flags and CasC bundles as code, in Go, through the cloudbees provider plugin (see ../yaml).
package main

import (
	"github.com/pulumi-cloudbees/pulumi-cloudbees/generated/sdk/go/cloudbees"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		rolloutPercentage := config.GetInt(ctx, "rolloutPercentage")
		if rolloutPercentage == 0 {
			rolloutPercentage = 50
		}

		checkout, err := cloudbees.NewApplication(ctx, "checkout", &cloudbees.ApplicationArgs{
			Name:          pulumi.String("checkout-service"),
			AdoptExisting: pulumi.Bool(true),
		})
		if err != nil {
			return err
		}
		staging, err := cloudbees.NewEnvironment(ctx, "staging", &cloudbees.EnvironmentArgs{
			ApplicationId: checkout.ApplicationId,
			Name:          pulumi.String("Staging"),
		})
		if err != nil {
			return err
		}
		newFlow, err := cloudbees.NewFlag(ctx, "newFlow", &cloudbees.FlagArgs{
			ApplicationId: checkout.ApplicationId,
			Name:          pulumi.String("checkout.newFlow"),
		})
		if err != nil {
			return err
		}
		_, err = cloudbees.NewFlagConfiguration(ctx, "newFlowStaging", &cloudbees.FlagConfigurationArgs{
			ApplicationId: checkout.ApplicationId,
			Environment:   staging.Name,
			Flag:          newFlow.Name,
			Value:         pulumi.Any([]map[string]interface{}{{"option": true, "percentage": rolloutPercentage}}),
		})
		if err != nil {
			return err
		}

		teamB, err := cloudbees.NewBundleAvailability(ctx, "teamB", &cloudbees.BundleAvailabilityArgs{
			BundleId:    pulumi.String("team-b"),
			Controllers: pulumi.StringArray{pulumi.String("team-b/controller-b")},
		})
		if err != nil {
			return err
		}
		controllerB, err := cloudbees.NewControllerBundleAssignment(ctx, "controllerB", &cloudbees.ControllerBundleAssignmentArgs{
			ControllerPath: pulumi.String("team-b/controller-b"),
			BundleId:       teamB.BundleId,
		})
		if err != nil {
			return err
		}
		bundleToken, err := cloudbees.NewControllerBundleToken(ctx, "bundleToken", &cloudbees.ControllerBundleTokenArgs{
			ControllerPath: controllerB.ControllerPath,
		})
		if err != nil {
			return err
		}

		bundles, err := cloudbees.GetBundles(ctx, &cloudbees.GetBundlesArgs{})
		if err != nil {
			return err
		}

		ctx.Export("applicationId", checkout.ApplicationId)
		ctx.Export("stagingKey", staging.Key)
		ctx.Export("firstBundle", pulumi.String(bundles.Bundles[0].Name))
		ctx.Export("linkFile", bundleToken.LinkFileContent)
		return nil
	})
}
