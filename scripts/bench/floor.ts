import { spawn } from "node:child_process";
import path from "node:path";
import { cannon, type CannonRun } from "./cannon";
import { probe, type BenchContext } from "./context";
import { Part, table, type PartResult } from "./part";
import { fmt, ratio } from "./stats";
import { recordSearch, writeStatements } from "./search-statements";
import { RENDER, SEARCH_TERMS } from "./server-times";
import { freePort } from "./shop";
import { signIn } from "./http";

/** The shop's listing data request: what a client-side visit to /shop fetches. */
export const SHOP_LISTING_DATA = "/shop.data";

async function startFloorServer(databaseUrl: string, searchFile: string) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.resolve("scripts/bench/floor-server.mjs")], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), POOL_SIZE: "10", FLOOR_SEARCH: searchFile },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the floor server did not start:\n${output}`)), 15_000);
    child.stdout.on("data", (d) => {
      output += d;
      if (output.includes("floor ready")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr.on("data", (d) => (output += d));
    child.once("exit", (code) => reject(new Error(`the floor server exited with ${code}:\n${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/products`,
    searchUrl: `http://127.0.0.1:${port}/search`,
    stop: async () => {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      await exited;
    },
  };
}

const row = (label: string, r: CannonRun) => [label, fmt(r.reqPerSec, 0), fmt(r.latency.p50), fmt(r.latency.p95), fmt(r.latency.p99), r.errors + r.non2xx];

/** The signed-in customer's data request should share the customers' rendering (docs/decisions/0023). */
export const SIGNED_IN_DATA_RATIO = 0.25;
export const SIGNED_IN_HTML_REQ_PER_SEC = 300;
export const SIGNED_IN_HTML_P99_RATIO = 4;
/** Rendered afresh (no cache helps): a quarter of the floor's req/s, p99 within 4× the floor's. */
export const RENDERED_RATIO = 0.25;
export const RENDERED_P99_RATIO = 4;
/** The search both sides run: a broad term, so the page is full and the typo pass is skipped. */
export const FLOOR_SEARCH_TERM = SEARCH_TERMS.broad[0]!;

/** The session cookie alone, as a browser sends it to the shop after signing in. */
async function customerCookie(ctx: BenchContext): Promise<string> {
  const cookies = await signIn(ctx.shop.baseUrl, ctx.customer.email, ctx.customer.password);
  const session = cookies.split("; ").find((c) => /^(?:__Secure-)?better-auth\.session_token=/.test(c));
  if (!session) throw new Error(`signing in set no session cookie (${cookies.slice(0, 100)})`);
  return session;
}

export async function runFloor(ctx: BenchContext): Promise<PartResult> {
  const part = new Part("floor", "Floor comparison: the shop's listing vs plain Node + pg");
  const shopUrl = ctx.shop.baseUrl + SHOP_LISTING_DATA;
  const first = await probe(shopUrl);
  if (first.status !== 200) {
    part.note(
      `Skipped: GET ${SHOP_LISTING_DATA} answered ${first.status || first.body}${first.status === 404 ? " — the /shop page is not built yet" : ""}.`,
      "skipped",
    );
    return part.result();
  }
  let signedIn: Record<string, string> | null = null;
  try {
    signedIn = { cookie: await customerCookie(ctx) };
    const check = await probe(shopUrl, { headers: signedIn });
    if (check.status !== 200 || !check.body.includes("customer")) throw new Error(`GET ${SHOP_LISTING_DATA} as the customer answered ${check.status}, not a signed-in page`);
  } catch (err) {
    signedIn = null;
    part.note(`The signed-in rows are missing: ${(err as Error).message}.`, "partial");
  }
  const statements = await recordSearch(ctx.databaseUrl, FLOOR_SEARCH_TERM);
  const floor = await startFloorServer(ctx.databaseUrl, writeStatements(statements));
  const searchPage = `/shop?search=${encodeURIComponent(FLOOR_SEARCH_TERM)}`;
  try {
    const { floorConnections: connections, floorSeconds: seconds } = ctx.opts;
    ctx.log(`  warm-up, then ${seconds} s per row at ${connections} connections`);
    const measure = async (url: string, headers?: Record<string, string>) => {
      await cannon({ url, connections, seconds: 2, headers });
      return cannon({ url, connections, seconds, headers });
    };
    const signedData = signedIn ? await measure(shopUrl, signedIn) : null;
    const signedHtml = signedIn ? await measure(ctx.shop.baseUrl + "/shop", signedIn) : null;
    // Every answer rendered afresh (a cookie the shop does not know passes the page cache by): the
    // framework's own cost, which a page cache miss pays.
    const rendered = await measure(shopUrl, RENDER);
    const plain = await measure(floor.url);
    const cached = await cannon({ url: shopUrl, connections, seconds });
    // The whole search page rendered afresh, against the floor replaying the same search's statements.
    const renderedSearch = await measure(ctx.shop.baseUrl + searchPage, RENDER);
    const plainSearch = await measure(floor.searchUrl);
    const vsFloor = (r: CannonRun) => ({ rps: ratio(r.reqPerSec, plain.reqPerSec), p99: ratio(r.latency.p99, plain.latency.p99) });
    const vsSearchFloor = { rps: ratio(renderedSearch.reqPerSec, plainSearch.reqPerSec), p99: ratio(renderedSearch.latency.p99, plainSearch.latency.p99) };
    part.data = {
      connections,
      seconds,
      signedInData: signedData,
      signedInHtml: signedHtml,
      rendered,
      floor: plain,
      shopPageCache: cached,
      signedInDataVsFloor: signedData && vsFloor(signedData),
      signedInHtmlVsFloor: signedHtml && vsFloor(signedHtml),
      renderedVsFloor: vsFloor(rendered),
      search: { term: FLOOR_SEARCH_TERM, statements: statements.length, rendered: renderedSearch, floor: plainSearch, renderedVsFloor: vsSearchFloor },
    };
    for (const [side, r] of [["the shop", rendered], ["the floor server", plain]] as const) {
      if (r.requests === 0) part.note(`No response from ${side} completed within ${seconds} s: the machine is overloaded or the route hangs.`, "failed");
    }
    for (const r of [signedData, signedHtml, rendered, cached, renderedSearch]) {
      if (r && r.errors + r.non2xx) part.note(`The shop answered ${r.errors} errors and ${r.non2xx} non-2xx during the comparison.`, "partial");
    }
    if (signedData) {
      const v = vsFloor(signedData);
      part.check({
        target: `Signed-in /shop.data ≥ ${SIGNED_IN_DATA_RATIO}× the Node + pg floor's req/s (${connections} connections)`,
        measured: `${fmt(signedData.reqPerSec, 0)} vs ${fmt(plain.reqPerSec, 0)} req/s = ${fmt(v.rps, 3)}×; p99 ${fmt(v.p99, 2)}× the floor's`,
        met: v.rps >= SIGNED_IN_DATA_RATIO && signedData.errors + signedData.non2xx === 0,
      });
    }
    if (signedHtml) {
      const v = vsFloor(signedHtml);
      part.check({
        target: `Signed-in /shop HTML ≥ ${SIGNED_IN_HTML_REQ_PER_SEC} req/s at ${connections} connections, p99 ≤ ${SIGNED_IN_HTML_P99_RATIO}× the floor's`,
        measured: `${fmt(signedHtml.reqPerSec, 0)} req/s, p99 ${fmt(signedHtml.latency.p99)} ms = ${fmt(v.p99, 2)}× the floor's ${fmt(plain.latency.p99)} ms`,
        met: signedHtml.reqPerSec >= SIGNED_IN_HTML_REQ_PER_SEC && v.p99 <= SIGNED_IN_HTML_P99_RATIO && signedHtml.errors + signedHtml.non2xx === 0,
      });
    }
    const r = vsFloor(rendered);
    part.check({
      target: `Rendered afresh /shop.data ≥ ${RENDERED_RATIO}× the Node + pg floor's req/s, p99 ≤ ${RENDERED_P99_RATIO}× the floor's`,
      measured: `${fmt(rendered.reqPerSec, 0)} vs ${fmt(plain.reqPerSec, 0)} req/s = ${fmt(r.rps, 3)}×; p99 ${fmt(r.p99, 2)}× the floor's`,
      met: r.rps >= RENDERED_RATIO && r.p99 <= RENDERED_P99_RATIO && rendered.errors + rendered.non2xx === 0,
    });
    part.check({
      target: `Rendered afresh ${searchPage} (HTML) ≥ ${RENDERED_RATIO}× a floor running the same search's ${statements.length} statements, p99 ≤ ${RENDERED_P99_RATIO}×`,
      measured: `${fmt(renderedSearch.reqPerSec, 0)} vs ${fmt(plainSearch.reqPerSec, 0)} req/s = ${fmt(vsSearchFloor.rps, 3)}×; p99 ${fmt(vsSearchFloor.p99, 2)}× the floor's`,
      met: vsSearchFloor.rps >= RENDERED_RATIO && vsSearchFloor.p99 <= RENDERED_P99_RATIO && renderedSearch.errors + renderedSearch.non2xx === 0,
    });
    part.md.push(
      `autocannon, ${connections} connections, ${seconds} s per row after a 2 s warm-up, no compression on either side. The floor is a minimal \`node:http\` server (scripts/bench/floor-server.mjs) running the same 24-row listing query as /shop with \`pg\` (pool of 10, as the shop) and answering JSON, a query per request. The shop rows:`,
      "",
      `- **signed in**: \`GET ${SHOP_LISTING_DATA}\` (the data request of a client-side visit to /shop: root and page loaders) and \`GET /shop\` (the whole page), each with a signed-in customer's session cookie. Storefront pages carry no one's identity, so every signed-in customer shares one rendering per page, kept by the page cache and checked against the change log like the anonymous one; each request still reads its session (one query) to know it is a customer's (docs/decisions/0023);`,
      `- **rendered afresh**: the data request with a cookie the shop does not know, which passes the page cache by: every answer is made afresh, as on a cache miss (by the listing's direct data path, server/listing-data.ts, unless the shop runs with LISTING_DATA_DIRECT=off);`,
      `- **page cache**: the data request without cookies, as an anonymous visitor gets it;`,
      `- **search**: the whole page \`GET ${searchPage}\` rendered afresh (a cookie the shop does not know), against the floor's \`/search\`, which replays with plain \`pg\`, on one pooled client, the ${statements.length} statements the shop's own search code sent for the same term (its read-only transaction included; recorded by scripts/bench/search-statements.ts) and answers the last one's rows as JSON.`,
      "",
      table(
        ["Side", "req/s", "p50 ms", "p95 ms", "p99 ms", "errors + non-2xx"],
        [
          ...(signedData ? [row(`Shop ${SHOP_LISTING_DATA}, signed in`, signedData)] : []),
          ...(signedHtml ? [row("Shop /shop (HTML), signed in", signedHtml)] : []),
          row(`Shop ${SHOP_LISTING_DATA}, rendered afresh`, rendered),
          row("Floor (node:http + pg)", plain),
          row(`Shop ${SHOP_LISTING_DATA}, page cache (no cookie)`, cached),
          row(`Shop ${searchPage} (HTML), rendered afresh`, renderedSearch),
          row("Floor search (node:http + pg, the same statements)", plainSearch),
        ],
      ),
      "",
      [
        signedData ? `**Ratios:** signed in, the data request serves **${fmt(vsFloor(signedData).rps, 3)}×** the floor's requests per second (p99 ${fmt(vsFloor(signedData).p99, 2)}×)` : "**Ratios:** no signed-in rows",
        signedHtml ? `the whole page **${fmt(signedHtml.reqPerSec, 0)} req/s** (p99 ${fmt(vsFloor(signedHtml).p99, 2)}× the floor's)` : null,
        `rendered afresh **${fmt(r.rps, 3)}×** (p99 ${fmt(r.p99, 2)}×)`,
        `from the page cache without cookies **${fmt(ratio(cached.reqPerSec, plain.reqPerSec), 2)}×**`,
        `the search page rendered afresh **${fmt(vsSearchFloor.rps, 3)}×** its floor (p99 ${fmt(vsSearchFloor.p99, 2)}×).`,
      ]
        .filter(Boolean)
        .join("; "),
    );
  } finally {
    await floor.stop();
  }
  return part.result();
}
