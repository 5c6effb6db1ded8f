import pg from "pg";
import { reviewCart } from "../../app/server/commerce/checkout/cart-review.server";
import { createDatabase } from "../../app/server/platform/db/client.server";
import type { BenchContext } from "./context";
import { request } from "./http";
import { untilQuiet } from "./machine";
import { Part, mark, table, type PartResult } from "./part";
import { fmt, summarize } from "./stats";

export const QUOTE_P95_MS = 3;
const ZONES = 1_000;
const CODES = 10_000;
const LINES = 20;
/** Quotes priced, unmeasured, between the cold series and the measured one (about 1.5 s). */
const WARM_QUOTES = 1_000;

const COUNTRIES = ["US", "CA", "GB", "IE", "AU", "NZ", "DE", "FR", "NL", "ES", "IT", "SE"];

/**
 * A shop with 1,000 shipping zones (countries, regions, postcode prefixes; flat, free-over and
 * weight rates), 10,000 discount codes and tax rates, in the bench's own database.
 */
async function fillPricing(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("begin");
    await client.query(
      `insert into shipping_zones (name, countries, regions, postcode_prefixes, position)
       select 'Zone ' || i,
              array[(array[${COUNTRIES.map((c) => `'${c}'`).join(",")}])[1 + i % ${COUNTRIES.length}]],
              case when i % 3 = 0 then array['R' || (i % 50)] else '{}'::text[] end,
              case when i % 2 = 0 then array[lpad((i % 997)::text, 3, '0')] else '{}'::text[] end,
              i
         from generate_series(1, $1) i`,
      [ZONES],
    );
    await client.query(
      `insert into shipping_rates (zone_id, name, kind, price_cents, free_over_cents, weight_bands, estimate, position)
       select z.id, r.name, r.kind, r.price, r.free_over, r.bands::jsonb, '3–5 business days', r.pos
         from shipping_zones z
        cross join (values ('Standard', 'free_over', 695, 7500, '[]', 0),
                           ('Express', 'flat', 2500, null, '[]', 1),
                           ('Heavy', 'weight', 0, null, '[{"fromGrams":0,"toGrams":5000,"priceCents":900},{"fromGrams":5000,"toGrams":null,"priceCents":2400}]', 2))
              as r(name, kind, price, free_over, bands, pos)
        where not z.rest_of_world`,
    );
    await client.query(
      `insert into discount_codes (code, kind, percent_basis_points, amount_cents, min_subtotal_cents, usage_limit, once_per_email)
       select 'BENCH' || i,
              case when i % 3 = 0 then 'fixed' when i % 3 = 1 then 'percent' else 'free_shipping' end,
              case when i % 3 = 1 then 500 + i % 2000 else null end,
              case when i % 3 = 0 then 100 + i % 5000 else null end,
              case when i % 5 = 0 then 1000 else null end,
              case when i % 7 = 0 then 1000000 else null end,
              i % 11 = 0
         from generate_series(1, $1) i on conflict do nothing`,
      [CODES],
    );
    await client.query(
      `insert into tax_rates (country, region, rate_basis_points)
       select c, '', 500 + row_number() over () * 100 from unnest($1::text[]) c on conflict do nothing`,
      [COUNTRIES],
    );
    await client.query("commit");
  } catch (err) {
    await client.query("rollback").catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
}

/** The quote a 20-line cart with a code gets, for an address found by postcode among 1,000 zones. */
export async function runPricing(ctx: BenchContext): Promise<PartResult> {
  const part = new Part("pricing", "Quotes: shipping zones, tax and discount codes");
  const products = ctx.samples.productIds.slice(0, 200);
  if (products.length < LINES) {
    part.note("Not enough sample products for a 20-line cart.", "skipped");
    return part.result();
  }
  ctx.log(`  adding ${ZONES.toLocaleString("en-US")} zones and ${CODES.toLocaleString("en-US")} codes`);
  await fillPricing(ctx.databaseUrl);

  const total = ctx.opts.warmup + ctx.opts.requests;
  // Every quote, cold, warming and warm, for a cart of its own.
  const cartAt = (i: number) => ({
    lines: Array.from({ length: LINES }, (_, j) => ({ id: products[(i * 7 + j * 13) % products.length]!, quantity: 1 + ((i + j) % 3) })),
    code: `bench${1 + ((i * 7919) % CODES)}`,
    country: COUNTRIES[i % COUNTRIES.length]!,
    zipCode: String((i * 37) % 997).padStart(3, "0") + "12",
    state: `R${i % 50}`,
  });
  const carts = Array.from({ length: total }, (_, i) => cartAt(i));

  // A quote takes a few milliseconds: what the part before left running would be most of it.
  const quiet = await untilQuiet();
  ctx.log(`  machine quiet after ${fmt(quiet.waitedMs / 1000, 1)} s`);

  // In the server process's place: the pricing work alone (database round trips included).
  const db = createDatabase(ctx.databaseUrl, 10);
  const cold: number[] = [];
  const inProcess: number[] = [];
  const quote = async (i: number) => {
    const cart = cartAt(i);
    const t0 = performance.now();
    const review = await reviewCart(db, cart.lines, { destination: cart, code: cart.code, email: `shopper${i}@example.test` });
    if (i === 0 && review.quote.lines.length !== LINES) part.note(`The first quote priced ${review.quote.lines.length} of ${LINES} lines.`, "partial");
    return performance.now() - t0;
  };
  try {
    // A process that has just started: its code not yet compiled by V8, its connections' plans
    // and caches empty. Reported, not judged.
    for (let i = 0; i < total; i++) {
      const ms = await quote(i);
      if (i >= ctx.opts.warmup) cold.push(ms);
    }
    // The server's time is a running server's: it has priced many carts before this one. The
    // same process goes on through WARM_QUOTES more, then the measured ones.
    for (let i = total; i < total + WARM_QUOTES; i++) await quote(i);
    for (let i = total + WARM_QUOTES; i < total + WARM_QUOTES + ctx.opts.requests; i++) inProcess.push(await quote(i));
  } finally {
    await db.$client.end();
  }

  // Through HTTP, as the cart and checkout pages ask (GET /api/cart/quote).
  const http: number[] = [];
  let errors = 0;
  for (const [i, cart] of carts.entries()) {
    const q = new URLSearchParams({
      lines: cart.lines.map((l) => `${l.id}:${l.quantity}`).join(","),
      code: cart.code,
      country: cart.country,
      state: cart.state,
      zip: cart.zipCode,
    });
    const res = await request(`${ctx.shop.baseUrl}/api/cart/quote?${q}`);
    if (res.status !== 200) errors++;
    if (i >= ctx.opts.warmup) http.push(res.ms);
  }

  const a = summarize(inProcess);
  const c = summarize(cold);
  const b = summarize(http);
  const met = a.p95 <= QUOTE_P95_MS && errors === 0;
  part.check({
    target: `Quote of a ${LINES}-line cart with a code, zone by postcode among ${ZONES.toLocaleString("en-US")} zones and ${CODES.toLocaleString("en-US")} codes: p95 ≤ ${QUOTE_P95_MS} ms server time`,
    measured: `p95 ${fmt(a.p95)} ms (pricing in a running server's place; ${fmt(c.p95)} ms in a process just started); ${fmt(b.p95)} ms through HTTP`,
    met,
    note: errors ? `${errors} HTTP requests did not answer 200` : undefined,
  });
  part.data = { inProcess: a, cold: c, warmQuotes: WARM_QUOTES, http: b, errors, zones: ZONES, codes: CODES, lines: LINES, quiet };
  part.md.push(
    `Quotes one after another, each for a different ${LINES}-line cart, code and address, priced by \`reviewCart\` in the bench's process with a pool of its own. ` +
      `First ${c.n + ctx.opts.warmup} as a process that has just started (the first ${ctx.opts.warmup} unmeasured): V8 has not compiled the code yet and the connections are new. ` +
      `Then ${WARM_QUOTES.toLocaleString("en-US")} more unmeasured, and the ${a.n} measured against the target, as a running server prices them. ` +
      `Last, ${b.n + ctx.opts.warmup} through HTTP (the first ${ctx.opts.warmup} unmeasured). ` +
      `They start once the machine's CPU has been under a quarter busy for a second (here after ${fmt(quiet.waitedMs / 1000, 1)} s` +
      `${quiet.busy === null ? "" : `, ${fmt(quiet.busy * 100, 0)} % busy`}): the burst before this part leaves the shop and PostgreSQL working for a while, ` +
      `and the 1-minute load average above still counts it.`,
    "",
    table(
      ["", "n", "p50 ms", "p95 ms", "p99 ms", "target", ""],
      [
        ["reviewCart, a process just started", c.n, fmt(c.p50), fmt(c.p95), fmt(c.p99), "", ""],
        [`reviewCart (server time), after ${WARM_QUOTES.toLocaleString("en-US")} quotes`, a.n, fmt(a.p50), fmt(a.p95), fmt(a.p99), `≤ ${QUOTE_P95_MS}`, mark(met)],
        ["GET /api/cart/quote", b.n, fmt(b.p50), fmt(b.p95), fmt(b.p99), "", ""],
      ],
    ),
  );
  return part.result();
}
