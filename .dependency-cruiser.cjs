// Layer rules of the shop, checked by `npm run check:layers` (the first stage of `npm test`).
// Why dependency-cruiser and what each rule protects: docs/decisions/0014.
//
// Every rule counts every kind of import: value, `import type`, `export … from`, dynamic
// `import()` and `require`. tests/integration/layer-rules.test.ts breaks each rule on purpose in a
// throwaway tree and checks that it is reported under its name.

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
        "app/server/db is the bottom of the server: it may import only itself, env.server.ts, " +
        "logger.server.ts, refusal.server.ts (the kinds of refusal) and npm packages, " +
        "never a domain folder of app/server nor anything else in the app.",
      from: { path: "^app/server/db/" },
      to: {
        path: "^app/",
        pathNot: [
          "^app/server/db/",
          "^app/server/env\\.server\\.ts$",
          "^app/server/logger\\.server\\.ts$",
          "^app/server/refusal\\.server\\.ts$",
        ],
      },
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
