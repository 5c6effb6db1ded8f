// The floor: the same 24-product listing the shop's /shop page shows first, straight from `pg`
// through node:http, with the shop's pool size. Started by floor.ts as a separate process, as
// the shop is, so both sides share the machine the same way. The ORDER BY must match the shop's
// (and its index, `nulls last`) exactly, or PostgreSQL sorts the whole table and the floor is no floor.
// `/search` replays the statements the shop's own search sent for one term (FLOOR_SEARCH, a JSON
// file floor.ts recorded: scripts/bench/search-statements.ts), its transaction included, on one
// pooled client, and answers the last statement's rows.
import fs from "node:fs";
import http from "node:http";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE || 10) });
const LISTING = `select id, name, price_cents, original_price_cents, image_url, rating, review_count, colors,
  unlimited_stock, stock_quantity from products where active
  order by featured desc nulls last, created_at desc nulls last, id desc nulls last limit 24`;

const search = process.env.FLOOR_SEARCH ? JSON.parse(fs.readFileSync(process.env.FLOOR_SEARCH, "utf8")) : [];

async function searched() {
  const client = await pool.connect();
  try {
    let last;
    for (const s of search) last = await client.query({ text: s.text, values: s.values, rowMode: s.rowMode });
    return last?.rows ?? [];
  } finally {
    client.release();
  }
}

const server = http.createServer(async (req, res) => {
  try {
    const rows = req.url.startsWith("/search") ? await searched() : (await pool.query({ name: "listing", text: LISTING })).rows;
    const body = JSON.stringify({ products: rows });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  } catch (err) {
    res.writeHead(500);
    res.end(String(err));
  }
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("floor ready"));
process.on("SIGTERM", () => server.close(() => pool.end().then(() => process.exit(0))));
