"""Feature flags and CasC bundles as code, in Python, through the cloudbees provider plugin (see ../yaml)."""
import pulumi
import pulumi_cloudbees as cloudbees

config = pulumi.Config()
rollout_percentage = config.get_int("rolloutPercentage") or 50

checkout = cloudbees.Application("checkout", name="checkout-service", adopt_existing=True)
staging = cloudbees.Environment("staging", application_id=checkout.application_id, name="Staging")
new_flow = cloudbees.Flag("newFlow", application_id=checkout.application_id, name="checkout.newFlow")
cloudbees.FlagConfiguration(
    "newFlowStaging",
    application_id=checkout.application_id,
    environment=staging.name,
    flag=new_flow.name,
    value=[{"option": True, "percentage": rollout_percentage}],
)

team_b = cloudbees.BundleAvailability("teamB", bundle_id="team-b", controllers=["team-b/controller-b"])
controller_b = cloudbees.ControllerBundleAssignment(
    "controllerB", controller_path="team-b/controller-b", bundle_id=team_b.bundle_id
)
bundle_token = cloudbees.ControllerBundleToken("bundleToken", controller_path=controller_b.controller_path)

bundles = cloudbees.get_bundles()

pulumi.export("applicationId", checkout.application_id)
pulumi.export("stagingKey", staging.key)
pulumi.export("firstBundle", bundles.bundles[0].name)
pulumi.export("linkFile", bundle_token.link_file_content)
