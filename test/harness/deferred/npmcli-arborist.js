// @pulumi/pulumi's `@npmcli/arborist`, loaded at its first use (../deferring-resolver.js).
module.exports = require("./stand-in")("@npmcli/arborist");
