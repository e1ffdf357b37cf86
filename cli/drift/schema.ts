/**
 * The JSON Schema of drift-report.json, imported so that the compiler copies it into dist/ beside this file (the
 * package ships it: dist/cli/drift/drift-report.schema.json).
 */
import schema = require("./drift-report.schema.json");

export const REPORT_SCHEMA: Record<string, unknown> = schema;
