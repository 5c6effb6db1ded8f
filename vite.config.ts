import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { defineConfig, type Plugin } from "vite";

/**
 * Client chunks: by default a storefront page loaded some 25 small chunks (one per set of routes
 * sharing a module), and gzip works per file, so a first visit paid about 4 KB of gzip overhead.
 * Groups instead (docs/decisions/0011-storefront-first-load-javascript.md, 0022-…):
 * - react: React, React DOM, React Router and the client entry (app/entry.client.tsx), which every page
 *   loads (the bare React Router template ships the same in two chunks);
 * - storefront: what every storefront page needs (the root and storefront layout routes' code,
 *   header, footer, cart store, lean primitives, icons, Add to Cart's click), with what it imports. The two route
 *   modules are left as one-line files re-exporting from it. The back arrow of the product page
 *   and the blog post is here too: a chunk of its own cost those pages 0.2 KB gzip, here it
 *   costs every page about 0.04 KB;
 * - catalog: what sells a product (price, rating, Add to Cart), for the product page and lists;
 * - listing: the grid, 'Load More' and the kept-markup wrapper, for home and /shop (the cards
 *   the server drew are kept as drawn, so the card's own code loads only for cards drawn later).
 * Modules outside the lists (zod, tailwind-merge, Radix, admin code) stay in the chunks of the
 * pages that import them.
 */
const CLIENT_CHUNK_GROUPS = [
  {
    name: "react",
    priority: 3,
    test: /node_modules[\\/]((react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]|@react-router[\\/]dev[\\/]dist[\\/]config[\\/]defaults[\\/]entry\.client\.tsx$)|app[\\/]entry\.client\.tsx$/,
  },
  {
    name: "storefront",
    priority: 2,
    test: /app[\\/](root|routes[\\/]store[\\/]layout|components[\\/](store[\\/](site-header|site-footer|newsletter-form)|ui[\\/]lean[\\/](button|badge|input|icons[\\/]arrow-left)|error-boundary|lazy-toaster)|lib[\\/](cart-read|shop-url|money|seo|site-settings|toast|nonce|add-to-cart-click))\.tsx?$/,
  },
  {
    name: "catalog",
    priority: 1,
    test: /app[\\/](components[\\/]store[\\/](add-to-cart-button|price|rating)|lib[\\/]images)\.tsx?$/,
  },
  { name: "listing", priority: 1, test: /app[\\/]components[\\/](store[\\/](product-grid|load-more)|kept)\.tsx?$/ },
];

/**
 * Vite wraps every dynamic import() of the client in its preload helper (about 0.8 KB gzip, in
 * the storefront chunk because the toast and the cart's sync load on demand), which fetches the
 * imported chunk's own imports alongside it. The chunks the storefront loads on demand (sonner,
 * the cart's sync, the review form…) import little that a page has not loaded already, so
 * `modulePreload: false` drops those preloads and this plugin gives the helper a body of one line
 * (the calls are unwrapped at render, leaving it unused). React Router's route preloads are its
 * own and are untouched.
 */
const PRELOAD_HELPER = /^\0vite\/preload-helper\.js$/;
const lightPreloadHelper: Plugin = {
  name: "shop:light-preload-helper",
  enforce: "pre",
  apply: "build",
  resolveId: { filter: { id: PRELOAD_HELPER }, handler: (id) => id },
  load: { filter: { id: PRELOAD_HELPER }, handler: () => "export const __vitePreload = (load) => load();" },
};

/**
 * The client's scripts and styles written beside themselves as .br (brotli at its best quality)
 * and .gz, once per build: the server sends these files as they are (server/static-assets.ts)
 * instead of compressing the same bytes again for every visitor who does not have them yet
 * (docs/decisions/0048). After the server build, because React Router writes the client's route
 * manifest (a script every page loads) and moves server-only assets into the client's folder
 * then. A file under 1 KB, or one a compression does not shrink, gets no copy of that kind.
 */
const PRECOMPRESSED = /\.(js|mjs|css|svg|json|txt|map)$/;
let serverOutDir = "";
const precompressClientAssets: Plugin = {
  name: "shop:precompress-client-assets",
  apply: "build",
  enforce: "post",
  configResolved(config) {
    serverOutDir = config.build.outDir;
  },
  async closeBundle() {
    // React Router builds into <buildDirectory>/server and <buildDirectory>/client.
    const assets = path.resolve(serverOutDir, "..", "client", "assets");
    if (!existsSync(assets)) return;
    const brotli = promisify(zlib.brotliCompress);
    const gzip = promisify(zlib.gzip);
    const names = (await readdir(assets)).filter((name) => PRECOMPRESSED.test(name));
    // Side by side: zlib works on libuv's threads, so both cores are used.
    await Promise.all(
      names.map(async (name) => {
        const file = path.join(assets, name);
        const body = await readFile(file);
        if (body.byteLength < 1024) return;
        const copies = await Promise.all([
          brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength } }),
          gzip(body, { level: 9 }),
        ]);
        await Promise.all(
          copies.map((copy, i) => (copy.byteLength < body.byteLength ? writeFile(file + (i === 0 ? ".br" : ".gz"), copy) : undefined)),
        );
      }),
    );
  },
};

/** Packages the server build bundles (see `ssr.noExternal` below). */
const SERVER_BUNDLED = [
  "lucide-react",
  "radix-ui",
  /^@radix-ui\//,
  /^better-auth/,
  /^@better-auth\//,
  /^@better-fetch\//,
  "better-call",
  "jose",
  "kysely",
  "defu",
  "nanostores",
  /^@noble\//,
  "zod",
  "drizzle-orm",
  "sonner",
  "class-variance-authority",
  "rou3",
  "iso-3166",
  "postcode-validator",
];

export default defineConfig(({ command, isSsrBuild }) => ({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  build: {
    // The server bundle's entry is our Express app, which wraps React Router's request handler.
    rollupOptions: isSsrBuild ? { input: "./server/app.ts" } : { output: { codeSplitting: { groups: CLIENT_CHUNK_GROUPS } } },
    modulePreload: false,
  },
  // Bundled into the server build instead of imported from node_modules at start: Node's entry of
  // lucide-react is one file defining every icon, radix-ui's imports every primitive, and the shop
  // uses a few of each; bundled, only those are kept (docs/decisions/0038). The pure-ESM packages
  // after them are bundled because Node 20 resolves, reads and compiles each of their hundreds of
  // files at every start: with them, a start's CPU until it is ready fell from 2.65 s to 1.67 s
  // (docs/decisions/0045). Packages with native code, and the CommonJS ones, stay external.
  // Not in development, where Vite would transform each of lucide's icon modules instead.
  ssr: { noExternal: command === "build" ? SERVER_BUNDLED : [] },
  server: { watch: { ignored: ["**/data/**", "**/bench/**", "**/test-results/**"] } },
  plugins: [lightPreloadHelper, tailwindcss(), reactRouter(), ...(command === "build" && isSsrBuild ? [precompressClientAssets] : [])],
}));
