// @pulumi/pulumi's `./automation`, loaded at its first use (../deferring-resolver.js).
module.exports = require("./stand-in")("./automation");
