import { z } from "zod";

// zod 4 probes `new Function` (when an object schema is built) to speed up parsing. Our CSP
// forbids eval, so in the browser the probe logs a CSP violation (Lighthouse best practices).
// Every module that builds a zod schema and may reach the browser imports this first (ES
// modules run imports in order). The root does not: storefront pages ship without zod at all
// (site-settings.ts, cart.ts, newsletter.ts, blog.ts and contact.ts are zod-free; their schemas
// live in *-input.ts files that only actions, server code and admin pages import).
if (typeof document !== "undefined") z.config({ jitless: true });
