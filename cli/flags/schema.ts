/**
 * The JSON Schema of flags-report.json, imported so that the compiler copies it into dist/ beside this file (the
 * package ships it: dist/cli/flags/flags-report.schema.json).
 */
import schema = require("./flags-report.schema.json");

export const FLAGS_REPORT_SCHEMA: Record<string, unknown> = schema;
