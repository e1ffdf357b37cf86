// @pulumi/pulumi's `typescript`, loaded at its first use (../deferring-resolver.js).
module.exports = require("./stand-in")("typescript");
