// @pulumi/pulumi's `normalize-package-data`, loaded at its first use (../deferring-resolver.js).
module.exports = require("./stand-in")("normalize-package-data");
