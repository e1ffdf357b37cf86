// @pulumi/pulumi's `fdir`, loaded at its first use (../deferring-resolver.js).
module.exports = require("./stand-in")("fdir");
