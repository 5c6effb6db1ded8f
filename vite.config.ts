import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

/**
 * Client chunks: by default a storefront page loaded some 25 small chunks (one per set of routes
 * sharing a module), and gzip works per file, so a first visit paid about 4 KB of gzip overhead.
 * Three groups instead (docs/decisions/0011-storefront-first-load-javascript.md):
 * - react: React, React DOM and React Router, which every page loads (the bare React Router
 *   template ships them in two chunks of the same total size);
 * - storefront: what every storefront page needs (header, footer, cart store, lean primitives,
 *   icons, error pages), with what it imports;
 * - catalog: the product card family, for the pages that list or sell products.
 * Modules outside the lists (zod, tailwind-merge, Radix, admin code) stay in the chunks of the
 * pages that import them.
 */
const CLIENT_CHUNK_GROUPS = [
  { name: "react", priority: 3, test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/ },
  {
    name: "storefront",
    priority: 2,
    test: /app[\\/](components[\\/](store[\\/](site-header|site-footer|newsletter-form)|ui[\\/]lean[\\/](button|badge|input)|error-boundary|lazy-toaster)|lib[\\/](cart|product|money|seo|site-settings|toast|nonce))\.tsx?$/,
  },
  {
    name: "catalog",
    priority: 1,
    test: /app[\\/](components[\\/]store[\\/](product-card|product-grid|load-more|add-to-cart-button|price|rating|color-dots)|lib[\\/]images)\.tsx?$/,
  },
];

export default defineConfig(({ isSsrBuild }) => ({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  build: {
    // The server bundle's entry is our Express app, which wraps React Router's request handler.
    rollupOptions: isSsrBuild ? { input: "./server/app.ts" } : { output: { codeSplitting: { groups: CLIENT_CHUNK_GROUPS } } },
  },
  server: { watch: { ignored: ["**/data/**", "**/bench/**", "**/test-results/**"] } },
  plugins: [tailwindcss(), reactRouter()],
}));
