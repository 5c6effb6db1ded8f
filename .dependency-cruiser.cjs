// Layer rules of the shop, checked by `npm run check:layers` (the first stage of `npm test`).
// Why dependency-cruiser and what each rule protects: docs/decisions/0014; the areas and their
// allowed directions: docs/architecture.md.
//
// Every rule counts every kind of import: value, `import type`, `export … from`, dynamic
// `import()` and `require`. tests/integration/layer-rules.test.ts breaks each rule on purpose in a
// throwaway tree and checks that it is reported under its name.

const AREAS = ["platform", "catalog", "commerce", "content", "people", "insight"];
const FACE = `^app/server/(${AREAS.join("|")})/index\\.server\\.ts$`;
const TEST = "\\.test\\.tsx?$";
/** The domain areas: every area but platform, whose machinery routes reach only through the route kit. */
const DOMAIN_AREAS = AREAS.filter((a) => a !== "platform");
/** What a route may import from app/server: a domain area's face, or platform's route kit. */
const ROUTE_MAY_IMPORT = [
  `^app/server/(${DOMAIN_AREAS.join("|")})/index\\.server\\.ts$`,
  "^app/server/platform/http/index\\.server\\.ts$",
];

/**
 * The areas each area may import (besides itself). The list is a ladder, so no circle between
 * areas can form: platform at the bottom, insight (which reads everything) at the top.
 */
const MAY_IMPORT = {
  platform: [],
  catalog: ["platform"],
  content: ["platform", "catalog"],
  people: ["platform", "catalog"],
  commerce: ["platform", "catalog", "people"],
  insight: ["platform", "catalog", "commerce", "content", "people"],
};

const areaDirections = Object.entries(MAY_IMPORT).map(([area, allowed]) => {
  const forbidden = AREAS.filter((a) => a !== area && !allowed.includes(a));
  return {
    name: `${area}-imports-only-${allowed.length ? allowed.join("-") : "itself"}`,
    severity: "error",
    comment:
      `app/server/${area} may import ${allowed.length ? allowed.join(", ") : "no other area"} ` +
      "(docs/architecture.md). An import the other way round would close a circle between areas: " +
      "ask the lower area for what it owns, or move the code to the area that owns the table.",
    from: { path: `^app/server/${area}/` },
    to: { path: `^app/server/(${forbidden.join("|")})/` },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "lib-not-to-server",
      severity: "error",
      comment:
        "app/lib is browser-safe code shared by pages, components and the server; it must not " +
        "reach into app/server, not even for a type. Move the shared type into app/lib (a *-view.ts).",
      from: { path: "^app/lib/" },
      to: { path: "^app/server/" },
    },
    {
      name: "components-not-to-server",
      severity: "error",
      comment:
        "Components render what a route's loader gives them; they must not import app/server, " +
        "not even a type. Put the shape they need in app/lib (a *-view.ts).",
      from: { path: "^app/components/" },
      to: { path: "^app/server/" },
    },
    {
      name: "server-not-to-routes-or-components",
      severity: "error",
      comment:
        "app/server is the domain: routes call it, never the other way round. HTTP concerns " +
        "live at the route edge (app/routes/_edge); shapes shared with pages live in app/lib.",
      from: { path: "^app/server/" },
      to: { path: "^app/(routes|components)/" },
    },
    {
      name: "db-only-to-db-env-logger-refusal",
      severity: "error",
      comment:
        "app/server/platform/db is the bottom of the server: it may import only itself, " +
        "platform/env.server.ts, platform/logger.server.ts, platform/refusal.server.ts (the kinds " +
        "of refusal) and npm packages, never anything else in the app.",
      from: { path: "^app/server/platform/db/" },
      to: {
        path: "^app/",
        pathNot: [
          "^app/server/platform/db/",
          "^app/server/platform/env\\.server\\.ts$",
          "^app/server/platform/logger\\.server\\.ts$",
          "^app/server/platform/refusal\\.server\\.ts$",
        ],
      },
    },
    ...areaDirections,
    {
      name: "other-areas-through-the-face",
      severity: "error",
      comment:
        "An area's public face is its index.server.ts; code outside the area (another area, the " +
        "boot and seed code) imports only that. Export what you need from the face, or ask the " +
        "area for it with a new function there.",
      from: { path: "^app/server/([^/]+)", pathNot: TEST },
      to: { path: `^app/server/(${AREAS.join("|")})/`, pathNot: [FACE, "^app/server/$1/"] },
    },
    {
      name: "routes-through-the-faces",
      severity: "error",
      comment:
        "Routes (and root.tsx, entry.server.tsx) import app/server only through the five domain " +
        "faces (app/server/<catalog|commerce|content|people|insight>/index.server.ts) and platform's " +
        "route kit (app/server/platform/http/index.server.ts): never platform's whole face, never an " +
        "adapter (mail, payments, storage). Ask the area whose screen it is for what the route needs.",
      from: { path: "^app/(routes/|root\\.tsx$|entry\\.)", pathNot: TEST },
      to: { path: "^app/server/", pathNot: ROUTE_MAY_IMPORT },
    },
    {
      name: "no-area-circle",
      severity: "error",
      comment:
        "No circle between the areas of app/server, counted at folder level: one import each " +
        "way between two areas is a circle even when no single file closes it.",
      scope: "folder",
      from: { path: "^app/server/[^/]+$" },
      to: { path: "^app/server/[^/]+$", circular: true },
    },
    {
      name: "ui-not-to-shop-components",
      severity: "error",
      comment:
        "app/components/ui holds the generic primitives; the shop's own pieces build on them, " +
        "never the other way round.",
      from: { path: "^app/components/ui/" },
      to: { path: "^app/components/(store|admin|blog|account)/" },
    },
    {
      name: "lib-not-to-components",
      severity: "error",
      comment: "app/lib is plain TypeScript under the components; it must not import them.",
      from: { path: "^app/lib/" },
      to: { path: "^app/components/" },
    },
    {
      name: "no-circular",
      severity: "error",
      comment:
        "No import circle anywhere in app/, server/ or scripts/, whatever the kind of import " +
        "(dynamic imports and type-only imports included). Break it by moving the shared part " +
        "into a module both sides import.",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // Only our own code is checked: npm packages are left out of the graph.
    doNotFollow: { path: "(^|/)node_modules/" },
    exclude: { path: "(^|/)node_modules/" },
    // `~/*` → `app/*` as in tsconfig.json.
    tsConfig: { fileName: "tsconfig.json" },
    // Look at the TypeScript source before compilation, so `import type` counts.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".d.ts"],
      mainFields: ["module", "main", "types", "typings"],
    },
    skipAnalysisNotInRules: true,
  },
};
