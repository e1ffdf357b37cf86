// @pulumi/pulumi's `semver`, loaded at its first use (../deferring-resolver.js).
module.exports = require("./stand-in")("semver");
