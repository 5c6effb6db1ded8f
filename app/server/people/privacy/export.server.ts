import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type SQL, sql } from "drizzle-orm";
import { ZipFile } from "yazl";
import { csvCell } from "~/lib/csv";
import { csvMoney } from "~/lib/reports-view";
import type { Db } from "../../platform/index.server";
import { emailSubjectRef, type PrivacyActor, userSubjectRef, writePrivacyAudit } from "./audit.server";
import { ACCOUNT_NOT_FOUND, PrivacyRefusal } from "./erase.server";
import { type ExportSection, PERSONAL_DATA } from "./registry";

/**
 * A person's copy of their data (GDPR articles 15 and 20; docs/rules/personal-data.md): a ZIP with
 * data.json (every section) and one readable CSV per list. Which columns go in is the registry's
 * say (every column it exports), plus the context that makes a row readable (an order's number,
 * status and money). Streamed: each section is read a page at a time while the ZIP is written, so
 * an account with thousands of orders takes no more memory than one with three.
 */

export type ExportSubject = { userId: string } | { email: string };

const PAGE = 500;

type Row = Record<string, unknown>;

/** A list in the download: one table, read in pages on (k1, k2). */
type Source = {
  section: ExportSection;
  table: string;
  csv: string;
  /** Columns that make a row readable, besides the registry's personal ones. */
  context: string[];
  /** Extra selected expressions (a product's name beside its id). */
  extra?: Record<string, SQL>;
  /** Which rows are the subject's; null: this subject has none here (a guest has no sessions). */
  where: (s: Resolved) => SQL | null;
  /** The page order: two columns, unique together, never null. */
  keys: [{ col: string; type: string }, { col: string; type: string }];
};

type Resolved = { userId: string | null; email: string };

const CREATED: Source["keys"] = [
  { col: "created_at", type: "timestamptz" },
  { col: "id", type: "text" },
];

const byUser = (s: Resolved) => (s.userId ? sql`user_id = ${s.userId}` : null);
const byEmail = (s: Resolved) => sql`lower(email) = ${s.email}`;
/** An account's orders are the ones it placed; a guest's, those under their address. */
const ordersOf = (s: Resolved) => (s.userId ? sql`user_id = ${s.userId}` : sql`lower(email) = ${s.email}`);

const SOURCES: Source[] = [
  { section: "sessions", table: "sessions", csv: "sessions.csv", context: ["created_at", "expires_at"], where: byUser, keys: CREATED },
  { section: "addresses", table: "saved_addresses", csv: "addresses.csv", context: ["is_default", "created_at"], where: byUser, keys: CREATED },
  {
    section: "orders",
    table: "orders",
    csv: "orders.csv",
    context: [
      "id",
      "order_number",
      "created_at",
      "paid_at",
      "status",
      "payment_status",
      "currency",
      "subtotal_cents",
      "discount_code",
      "discount_cents",
      "shipping_name",
      "shipping_cents",
      "tax_name",
      "tax_cents",
      "total_amount_cents",
      "refunded_cents",
      "carrier",
      "tracking_number",
      "tracking_url",
      "email_about_order",
    ],
    where: ordersOf,
    keys: CREATED,
  },
  {
    section: "returns",
    table: "order_returns",
    csv: "returns.csv",
    context: ["return_number", "kind", "state", "reason", "lines", "created_at", "withdrawn_at"],
    extra: { order_number: sql`(select o.order_number from orders o where o.id = order_returns.order_id)` },
    where: (s) => sql`order_id in (select id from orders where ${ordersOf(s)})`,
    keys: CREATED,
  },
  {
    section: "reviews",
    table: "reviews",
    csv: "reviews.csv",
    context: ["rating", "title", "status", "reply", "created_at"],
    extra: { product: sql`(select p.name from products p where p.id = reviews.product_id)` },
    where: byUser,
    keys: CREATED,
  },
  {
    section: "saved_cart",
    table: "cart_lines",
    csv: "saved-cart.csv",
    context: ["updated_at"],
    extra: { product: sql`(select p.name from products p where p.id = cart_lines.product_id)` },
    where: byUser,
    keys: [
      { col: "updated_at", type: "timestamptz" },
      { col: "product_id", type: "text" },
    ],
  },
  { section: "newsletter", table: "newsletter_subscriptions", csv: "newsletter.csv", context: ["created_at", "confirmation_sent_at"], where: byEmail, keys: CREATED },
  { section: "contact_messages", table: "contact_messages", csv: "contact-messages.csv", context: ["created_at", "handled"], where: byEmail, keys: CREATED },
  {
    section: "consents",
    table: "mail_opt_outs",
    csv: "consents.csv",
    context: ["created_at"],
    where: (s) => sql`email_key = ${s.email}`,
    keys: [
      { col: "created_at", type: "timestamptz" },
      { col: "email_key", type: "text" },
    ],
  },
];

/** The registry's exported columns of one table in one section. */
const registered = (section: ExportSection, table: string) =>
  PERSONAL_DATA.filter((c) => c.table === table && "section" in c.export && c.export.section === section).map((c) => c.column);

const columnsOf = (source: Source) => [...new Set([...source.context, ...registered(source.section, source.table)])];

/** The order lines: context plus the registry's. */
const LINE_COLUMNS = [...new Set(["name", "unit_price_cents", "quantity", "line_total_cents", "discount_cents", "tax_cents", ...registered("order_lines", "order_items")])];

/** int8 arrives as text from the driver: money columns become numbers (cents), times ISO strings. */
function tidy(row: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) {
    if (k.startsWith("__")) continue;
    if (v instanceof Date) out[k] = v.toISOString();
    else if (k.endsWith("_cents") && typeof v === "string") out[k] = Number(v);
    // Raw queries hand timestamps over as PostgreSQL's text ('2026-01-02 03:04:05+00').
    else if (k.endsWith("_at") && typeof v === "string") out[k] = new Date(v).toISOString();
    else out[k] = v;
  }
  return out;
}

async function* pages(db: Db, source: Source, subject: Resolved): AsyncGenerator<Row[]> {
  const where = source.where(subject);
  if (!where) return;
  const cols = columnsOf(source);
  const [k1, k2] = source.keys;
  const select = sql.join(
    [
      ...cols.map((c) => sql.identifier(c)),
      ...Object.entries(source.extra ?? {}).map(([name, expr]) => sql`${expr} as ${sql.identifier(name)}`),
      sql`${sql.identifier(k1.col)}::text as "__k1"`,
      sql`${sql.identifier(k2.col)}::text as "__k2"`,
    ],
    sql`, `,
  );
  const order = sql`${sql.identifier(k1.col)}, ${sql.identifier(k2.col)}::text`;
  let after: [string, string] | null = null;
  for (;;) {
    const cursor: SQL = after
      ? sql`and (${sql.identifier(k1.col)}, ${sql.identifier(k2.col)}::text) > (${after[0]}::${sql.raw(k1.type)}, ${after[1]})`
      : sql``;
    const result = await db.execute<Row>(
      sql`select ${select} from ${sql.identifier(source.table)} where ${where} ${cursor} order by ${order} limit ${PAGE}`,
    );
    if (result.rows.length === 0) return;
    const last = result.rows[result.rows.length - 1]!;
    after = [String(last.__k1), String(last.__k2)];
    yield result.rows;
    if (result.rows.length < PAGE) return;
  }
}

async function linesOf(db: Db, orderIds: string[]): Promise<Map<string, Row[]>> {
  const byOrder = new Map<string, Row[]>();
  if (orderIds.length === 0) return byOrder;
  const result = await db.execute<Row>(sql`
    select order_id::text as "__order", ${sql.join(LINE_COLUMNS.map((c) => sql.identifier(c)), sql`, `)}
    from order_items where order_id in (${sql.join(orderIds.map((id) => sql`${id}::uuid`), sql`, `)})
    order by order_id, id`);
  for (const r of result.rows) {
    const id = String(r.__order);
    if (!byOrder.has(id)) byOrder.set(id, []);
    byOrder.get(id)!.push(tidy(r));
  }
  return byOrder;
}

async function resolve(db: Db, subject: ExportSubject): Promise<Resolved & { account: Row | null }> {
  if ("email" in subject) return { userId: null, email: subject.email.trim().toLowerCase(), account: null };
  const userCols = registered("account", "users");
  const profileCols = registered("account", "profiles");
  const result = await db.execute<Row>(sql`
    select ${sql.join(userCols.map((c) => sql`u.${sql.identifier(c)}`), sql`, `)},
      (select row_to_json(p) from (select ${sql.join(profileCols.map((c) => sql.identifier(c)), sql`, `)}
         from profiles where user_id = u.id) p) as "__profile"
    from users u where u.id = ${subject.userId}`);
  const row = result.rows[0];
  if (!row) throw new PrivacyRefusal(ACCOUNT_NOT_FOUND, "not_found");
  const { __profile, ...user } = row;
  return {
    userId: subject.userId,
    email: String(user.email).trim().toLowerCase(),
    account: { user: tidy(user), profile: (__profile as Row | null) ?? null },
  };
}

// ---- data.json -------------------------------------------------------------------------------

async function* dataJson(db: Db, subject: Resolved & { account: Row | null }, counts: Record<string, number>): AsyncGenerator<string> {
  yield `{\n"generated_at": ${JSON.stringify(new Date().toISOString())},\n"account": ${JSON.stringify(subject.account)}`;
  for (const source of SOURCES) {
    yield `,\n${JSON.stringify(source.section)}: [`;
    let n = 0;
    for await (const page of pages(db, source, subject)) {
      const lines = source.section === "orders" ? await linesOf(db, page.map((r) => String(r.id))) : null;
      const parts = page.map((r) => {
        const row = tidy(r);
        if (lines) row.lines = lines.get(String(r.id)) ?? [];
        return JSON.stringify(row);
      });
      yield `${n ? "," : ""}\n${parts.join(",\n")}`;
      n += page.length;
    }
    counts[source.section] = n;
    yield `\n]`;
  }
  yield `\n}\n`;
}

// ---- CSVs ------------------------------------------------------------------------------------

/** A cell as a person reads it: cents as decimals, dates ISO, lists as JSON, empty for nothing. */
function cell(column: string, value: unknown): string {
  if (value === null || value === undefined) return csvCell("");
  if (column.endsWith("_at") && typeof value === "string") return csvCell(new Date(value).toISOString());
  if (value instanceof Date) return csvCell(value.toISOString());
  if (column.endsWith("_cents") && (typeof value === "number" || typeof value === "string")) return csvCell(csvMoney(Number(value)));
  if (typeof value === "object") return csvCell(JSON.stringify(value));
  return csvCell(String(value));
}

const header = (columns: string[]) => `${columns.map((c) => csvCell(c.replace(/_cents$/, ""))).join(",")}\r\n`;
const line = (columns: string[], row: Row) => `${columns.map((c) => cell(c, row[c])).join(",")}\r\n`;

async function* csvOf(db: Db, source: Source, subject: Resolved): AsyncGenerator<string> {
  const columns = [...columnsOf(source), ...Object.keys(source.extra ?? {})];
  yield header(columns);
  for await (const page of pages(db, source, subject)) yield page.map((r) => line(columns, r)).join("");
}

async function* orderLinesCsv(db: Db, subject: Resolved): AsyncGenerator<string> {
  const orders = SOURCES.find((s) => s.section === "orders")!;
  const columns = ["order_number", ...LINE_COLUMNS];
  yield header(columns);
  for await (const page of pages(db, orders, subject)) {
    const lines = await linesOf(db, page.map((r) => String(r.id)));
    yield page.flatMap((o) => (lines.get(String(o.id)) ?? []).map((l) => line(columns, { ...l, order_number: o.order_number }))).join("");
  }
}

function accountCsv(account: Row | null): string {
  if (!account) return header(["field", "value"]);
  const { user, profile } = account as { user: Row; profile: Row | null };
  const rows = [...Object.entries(user).map(([k, v]) => [`account ${k}`, v]), ...Object.entries(profile ?? {}).map(([k, v]) => [`profile ${k}`, v])];
  return header(["field", "value"]) + rows.map(([k, v]) => `${csvCell(String(k))},${cell(String(k), v)}\r\n`).join("");
}

const README = `Your data from this shop.

data.json has everything in one file; the CSV files hold the same lists for a spreadsheet
(amounts in the order's currency, with two decimals; times in UTC).
Orders stay with the shop as its records for the period the law requires, also after an account is deleted.
`;

/**
 * Streams the subject's ZIP into `out` (ended when done) and logs the export (who, when, how many
 * rows per section). An unknown account id is refused before anything is written.
 */
export async function exportPersonalData(
  db: Db,
  subject: ExportSubject,
  out: NodeJS.WritableStream,
  actor: PrivacyActor = "userId" in subject ? { kind: "customer", id: subject.userId } : { kind: "guest" },
): Promise<void> {
  const resolved = await resolve(db, subject);
  const counts: Record<string, number> = { account: resolved.account ? 1 : 0 };
  const zip = new ZipFile();
  const mtime = new Date();
  const lazy = (name: string, make: () => AsyncGenerator<string> | string) =>
    zip.addReadStreamLazy(name, { mtime }, (cb) => {
      const v = make();
      cb(null, typeof v === "string" ? Readable.from([v]) : Readable.from(v));
    });
  lazy("README.txt", () => README);
  lazy("data.json", () => dataJson(db, resolved, counts));
  lazy("account.csv", () => accountCsv(resolved.account));
  for (const source of SOURCES) {
    lazy(source.csv, () => csvOf(db, source, resolved));
    if (source.section === "orders") lazy("order-lines.csv", () => orderLinesCsv(db, resolved));
  }
  zip.end();
  await pipeline(zip.outputStream, out);
  await writePrivacyAudit(db, {
    kind: "export",
    actor,
    subjectRef: resolved.userId ? userSubjectRef(resolved.userId) : emailSubjectRef(resolved.email),
    counts,
  });
}
