// @pulumi/pulumi's `@opentelemetry/api`, loaded at its first use (../deferring-resolver.js).
module.exports = require("./stand-in")("@opentelemetry/api");
