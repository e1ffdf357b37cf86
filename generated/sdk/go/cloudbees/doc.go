// Manage CloudBees from Pulumi: the feature-flag service's applications API (applications, environments, flags, their configuration per environment, target groups, team members) and the CI product's configuration-as-code bundle API (bundle availability, assignments, the default bundle, validation, check-out, tokens, reloads, items).
package cloudbees
