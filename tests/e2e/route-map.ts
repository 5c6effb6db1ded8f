import fs from "node:fs";
import path from "node:path";
import routes from "~/routes";

/**
 * Every route of app/routes.ts as a URL pattern and what its module exports, read from the module's
 * source (importing every page into the test process would load the whole app). Tests that walk
 * the shop's real routes start here, so a route added to app/routes.ts is walked too.
 */
export type RouteInfo = {
  /** '/admin/outbox/:id', '/' for the home page, '/*' for the catch-all. */
  pattern: string;
  file: string;
  /** A page (default export): React Router renders it, and the root loader reads the session. */
  page: boolean;
  loader: boolean;
  action: boolean;
  /** Reads a link's token from its query (token, t, session_id) or its path (a payment session id). */
  takesToken: boolean;
};

type Entry = {
  file: string;
  path?: string;
  index?: boolean;
  children?: Entry[];
};

const exported = (source: string, name: string) =>
  new RegExp(`^export (?:async )?function ${name}\\b|^export const ${name}\\b|^export \\{[^}]*\\b${name}\\b`, "m").test(source);

/** The query parameters a route's links carry their token in. */
export const TOKEN_PARAMS = ["token", "t", "session_id"] as const;
const TOKEN_READ = new RegExp(`\\b(?:searchParams|params)\\.get\\("(?:${TOKEN_PARAMS.join("|")})"\\)`);
const TOKEN_IN_PATH = /:sessionId\b/;

export function routeMap(): RouteInfo[] {
  const out: RouteInfo[] = [];
  const walk = (entries: Entry[], base: string) => {
    for (const e of entries) {
      const here = e.path ? `${base.replace(/\/$/, "")}/${e.path}` : base;
      if (e.children) {
        walk(e.children, here);
        continue;
      }
      const source = fs.readFileSync(path.resolve("app", e.file), "utf8");
      out.push({
        pattern: here || "/",
        file: e.file,
        page: /^export default\b/m.test(source),
        loader: exported(source, "loader"),
        action: exported(source, "action"),
        takesToken: TOKEN_READ.test(source) || TOKEN_IN_PATH.test(here),
      });
    }
  };
  walk(routes as Entry[], "");
  return out;
}
