// `npm run architecture`: the areas of app/server (folders, files, lines), the imports between
// them with their circles, and which area writes which table against its owner
// (docs/architecture.md explains the areas and the rules).
import { areaCircles, areaImports, describeAreas, tableWrites } from "./architecture/analyse";
import { TABLE_OWNERS, WRITERS_OUTSIDE_AREAS } from "./architecture/table-owners";

const areas = describeAreas();
console.log("## Areas\n\n| Area | Folders | Files | Lines |\n|---|---|---:|---:|");
for (const a of areas) console.log(`| ${a.name} | ${a.folders.join(", ")} | ${a.files} | ${a.lines.toLocaleString("en")} |`);

const imports = areaImports();
console.log("\n## Imports between areas (file → file)\n");
const names = areas.map((a) => a.name);
console.log(`| from \\ to | ${names.join(" | ")} |\n|---|${names.map(() => "---:").join("|")}|`);
for (const from of names) {
  console.log(`| ${from} | ${names.map((to) => (to === from ? "·" : String(imports.get(`${from} → ${to}`) ?? ""))).join(" | ")} |`);
}
const circles = areaCircles(imports.keys());
console.log(`\nCircles between areas: ${circles.length}${circles.map((c) => `\n- ${c.join(" ↔ ")}`).join("")}`);

const writes = await tableWrites();
console.log("\n## Tables and their writers\n\n| Table | Owner | Written from |\n|---|---|---|");
const byTable = new Map<string, Set<string>>();
for (const w of writes) byTable.set(w.table, (byTable.get(w.table) ?? new Set()).add(w.area));
let strays = 0;
for (const [table, owner] of Object.entries(TABLE_OWNERS).sort()) {
  const from = [...(byTable.get(table) ?? [])].sort();
  strays += from.filter((a) => a !== owner && !WRITERS_OUTSIDE_AREAS.includes(a)).length;
  const label = (a: string) => (a === owner ? a : WRITERS_OUTSIDE_AREAS.includes(a) ? `${a} (demo data)` : `**${a}**`);
  console.log(`| ${table} | ${owner} | ${from.map(label).join(", ") || "— (triggers or a library)"} |`);
}
console.log(`\nWrites from an area that does not own the table: ${strays}`);
