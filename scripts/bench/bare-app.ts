import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, runCommand } from "./shop";

/**
 * The floor for first-load JavaScript and first paint: a bare React Router page (the framework
 * template's root and one route) built with the very packages the shop uses — its node_modules
 * is a link to the shop's — and served by Express with @react-router/express and compression,
 * as the shop is.
 */
const versionOf = (pkg: string) => (JSON.parse(fs.readFileSync(path.resolve("node_modules", pkg, "package.json"), "utf8")) as { version: string }).version;

const FILES: Record<string, string> = {
  // React Router's build reads the runtime (@react-router/node) from the dependencies listed here.
  "package.json": JSON.stringify({
    name: "bare-react-router",
    private: true,
    type: "module",
    dependencies: Object.fromEntries(["@react-router/node", "@react-router/express", "react-router", "react", "react-dom", "isbot", "express", "compression"].map((p) => [p, versionOf(p)])),
  }),
  "tsconfig.json": JSON.stringify({ compilerOptions: { jsx: "react-jsx", module: "ES2022", moduleResolution: "bundler", target: "ES2022", strict: true } }),
  "react-router.config.ts": `export default { ssr: true };\n`,
  "vite.config.ts": `import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
export default defineConfig({ plugins: [reactRouter()] });
`,
  "app/root.tsx": `import type { ReactNode } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration } from "react-router";

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}
`,
  "app/routes.ts": `import { type RouteConfig, index } from "@react-router/dev/routes";
export default [index("routes/home.tsx")] satisfies RouteConfig;
`,
  "app/routes/home.tsx": `export function meta() {
  return [{ title: "Bare React Router" }, { name: "description", content: "A bare React Router page: the floor for first-load JavaScript." }];
}

export default function Home() {
  return (
    <main>
      <h1>Hello</h1>
      <p>A bare React Router page.</p>
    </main>
  );
}
`,
  // Compressed as the shop's answers are, so Lighthouse times both pages' bytes alike.
  "server.mjs": `import express from "express";
import compression from "compression";
import { createRequestHandler } from "@react-router/express";
const build = await import("./build/server/index.js");
const app = express();
app.use(compression());
app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
app.use(express.static("build/client"));
app.use(createRequestHandler({ build }));
app.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("bare ready"));
`,
};

export type BareApp = { url: string; versions: { reactRouter: string; react: string }; stop: () => Promise<void> };


export async function startBareApp(log: (m: string) => void = () => {}): Promise<BareApp> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bare-rr-"));
  try {
    for (const [name, text] of Object.entries(FILES)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    fs.symlinkSync(path.resolve("node_modules"), path.join(dir, "node_modules"), "dir");
    log("  building a bare React Router app…");
    await runCommand(path.resolve("node_modules/.bin/react-router"), ["build"], { cwd: dir, env: { ...process.env, NODE_ENV: "production" }, timeoutMs: 5 * 60_000 });
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const port = await freePort();
  const child = spawn(process.execPath, ["server.mjs"], { cwd: dir, env: { ...process.env, PORT: String(port), NODE_ENV: "production" }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 3000).unref();
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the bare app did not start:\n${output}`)), 15_000);
      child.stdout.on("data", (d) => {
        output += d;
        if (output.includes("bare ready")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.stderr.on("data", (d) => (output += d));
      child.once("exit", (code) => reject(new Error(`the bare app exited with ${code}:\n${output}`)));
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `http://127.0.0.1:${port}/`, versions: { reactRouter: versionOf("react-router"), react: versionOf("react") }, stop };
}
