// Starts the shop: validates the environment, opens (or starts) the database, applies
// migrations, seeds the demo on first start, then serves HTTP until SIGTERM/SIGINT.
import net from "node:net";
import express from "express";

const dev = process.env.NODE_ENV === "development";
// React picks its development or production build from NODE_ENV when it is first imported (with
// the built shop below); unset, `npm start` would render every page with development React,
// about twice the CPU per page. The environment schema already defaults to production.
if (!process.env.NODE_ENV) process.env.NODE_ENV = "production";
const buildDir = process.env.SHOP_BUILD_DIR || "build";
const fail = (message) => {
  console.error(`\n✖ ${message}\n`);
  process.exit(1);
};

let shop;
let vite;
if (dev) {
  const { createServer } = await import("vite");
  vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
  shop = await vite.ssrLoadModule("./server/app.ts");
} else {
  const entry = new URL(`./${buildDir}/server/index.js`, import.meta.url);
  shop = await import(entry.href).catch((err) =>
    fail(`The shop is not built (${err.code ?? err.message}). Run: npm start`),
  );
}

const port = Number(process.env.PORT || 3000);
const host = process.env.HOST || "0.0.0.0";
const portTaken = () => fail(`Port ${port} is already in use. Stop the other program or set PORT to a free port.`);

// A taken port is told before the database is opened: a first start would otherwise initialise
// and migrate a new embedded PostgreSQL (10 s and more) only to stop at the listen. Something
// may still take the port during the start; the listen below says so then.
await new Promise((resolve) => {
  const probe = net.createServer();
  probe.once("error", (err) => (err.code === "EADDRINUSE" ? portTaken() : resolve()));
  probe.listen({ port, host, exclusive: true }, () => probe.close(resolve));
});

try {
  await shop.boot();
} catch (err) {
  fail(err?.message || String(err));
}

let stopping = false;
const server = express();
server.disable("x-powered-by");
// While stopping, a keep-alive connection is closed after its current answer, so a client that
// keeps sending requests on it cannot hold the shutdown open.
server.use((_req, res, next) => {
  if (stopping) res.setHeader("Connection", "close");
  next();
});
if (dev) {
  server.use(vite.middlewares);
  server.use(async (req, res, next) => {
    try {
      const mod = await vite.ssrLoadModule("./server/app.ts");
      return mod.createApp({ dev: true })(req, res, next);
    } catch (err) {
      if (err instanceof Error) vite.ssrFixStacktrace(err);
      next(err);
    }
  });
} else {
  server.use(shop.createApp({ dev: false }));
}

// Connections the kernel may hold for the shop before it accepts them. Node's default, 511, is
// smaller than a burst of a thousand visitors: the kernel drops the connections past it (a
// thousand-request burst counted 7,202 such drops, TcpExtListenOverflows), each waits a second
// or more for its retry, and one whose handshake went unanswered five times is reset
// (ECONNRESET). The kernel caps this at net.core.somaxconn (4096 on current Linux).
const LISTEN_BACKLOG = 4096;
const http = server.listen({ port, host, backlog: LISTEN_BACKLOG });
http.keepAliveTimeout = 65_000;
http.on("error", async (err) => {
  await shop.shutdown().catch(() => {});
  if (err.code === "EADDRINUSE") portTaken();
  fail(`Cannot listen on ${host}:${port}: ${err.message}`);
});
http.on("listening", () => {
  const shown = host === "0.0.0.0" || host === "::" ? "localhost" : host;
  console.log(`\n  Shop ready on http://${shown}:${http.address().port}\n`);
  // Once the shop answers, not during its start: started inside boot(), loading react-email ran
  // before the ready line (0.5–0.7 s of a start's 2.2–3.5 s of CPU, docs/decisions/0020).
  shop.warmUpMailTemplates();
});

async function stop(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`\n  ${signal}: finishing requests in flight, then stopping…`);
  shop.beginShutdown?.();
  const force = setTimeout(() => {
    console.error("  Requests did not finish in 10 s; stopping anyway.");
    http.closeAllConnections();
  }, 10_000);
  force.unref();
  // Stop accepting, let in-flight requests finish, drop idle keep-alive sockets — also those that
  // become idle later (an answer finishing just after the signal would otherwise keep its socket
  // for the whole keep-alive timeout).
  const sweep = setInterval(() => http.closeIdleConnections(), 100);
  await new Promise((resolve) => {
    http.close(resolve);
    http.closeIdleConnections();
  });
  clearInterval(sweep);
  // A job that does not end (a stuck relay, a database gone mid-job) must not keep the process
  // alive: past this, it exits, and its session's locks go with it, which frees its running jobs
  // for the other servers (docs/decisions/0028).
  const deadline = setTimeout(() => {
    console.error("  The shutdown did not finish in 20 s; exiting anyway (its running jobs go back to the queue).");
    process.exit(1);
  }, 20_000);
  deadline.unref();
  await vite?.close();
  await shop.shutdown();
  clearTimeout(force);
  process.exit(0);
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
// A promise rejected where nobody listens (a streamed loader value, a mail sent after the
// response) must not take the whole shop down with it: log it and keep serving.
process.on("unhandledRejection", (reason) => {
  console.error(JSON.stringify({ level: 50, time: Date.now(), msg: "unhandled rejection", err: String(reason?.stack ?? reason) }));
});
