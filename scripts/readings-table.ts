// `npm run docs:readings`: writes emulator/README.md's table of readings from emulator/readings.ts.
import * as fs from "node:fs";
import * as path from "node:path";
import { withReadingsTable } from "../emulator/readings-table";

const readme = path.join(__dirname, "..", "emulator", "README.md");
fs.writeFileSync(readme, withReadingsTable(fs.readFileSync(readme, "utf8")));
console.log(`wrote the readings table of ${path.relative(process.cwd(), readme)}`);
