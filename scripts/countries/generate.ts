import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { renderCountryNames } from "./render";

// Rewrites app/lib/country-names.generated.ts after the iso-3166 package is updated.
const target = fileURLToPath(new URL("../../app/lib/country-names.generated.ts", import.meta.url));
writeFileSync(target, renderCountryNames());
console.log(`wrote ${target}`);
