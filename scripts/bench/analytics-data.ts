import pg from "pg";
import {
  DISCOUNT_CODES, EMAIL_DOMAINS, FIRST_NAMES, STREETS, SURNAMES, TOWNS, changeLetter, searchTermPool,
} from "./analytics-words";

/**
 * A year of a big shop's trade for the owner's pages, generated inside PostgreSQL
 * (INSERT … SELECT over generate_series: no rows cross the wire) on top of the bench catalogue:
 *
 * - customers: 40% accounts (users with role customer), 60% guests known only by their orders;
 * - orders over the last 365 UTC days (more of them lately, as a growing shop has), 90% paid and
 *   counted, the rest unpaid, failed, expired, refunded (3%) or cancelled while paid (2%);
 *   order numbers in the shop's format, unique per day; a tenth with a percent-off code;
 *   shipping and tax as checkout charges them (free over $75, an express tenth, tax by state);
 * - four lines per order on average, products drawn with a steep skew so a few sell a lot; each
 *   line carries its share of the order's discount and its tax, as checkout writes them;
 * - newsletter subscribers (the catalogue already gives most products a cost, for the stock report);
 * - visits, page views (about 200 paths a day) and searches (about 300 terms a day) per day.
 *
 * Rows go in with triggers off (`session_replication_role = replica`), as a bulk load would; the
 * roll-ups are then rebuilt by the functions the migrations define, and every table analysed.
 */

export type AnalyticsSizes = { orders: number; customers: number; linesPerOrder: number; days: number };

export const sizesFor = (orders: number): AnalyticsSizes => ({ orders, customers: Math.max(1, Math.round(orders / 5)), linesPerOrder: 4, days: 365 });

export type AnalyticsData = {
  sizes: AnalyticsSizes;
  counts: Record<string, number>;
  /** Rows in each roll-up table after the rebuilds. */
  rollups: Record<string, number>;
  /** Seconds per step, in the order they ran. */
  steps: { step: string; seconds: number }[];
  seconds: number;
  /** Things the load could not do (a roll-up function not there yet, triggers left on), in words. */
  notes: string[];
  /** Surnames with one letter changed, for the customers search. */
  typoSurnames: string[];
  today: string;
};

/** The roll-up rebuilds the migrations provide; a missing one is noted, not fatal. */
const REBUILDS = ["customers_rebuild", "sales_rollups_rebuild"];

/** Roll-up tables whose row counts the results show. */
const ROLLUPS = ["customers", "sales_daily", "sales_daily_products", "sales_monthly_products", "sales_daily_categories", "sales_counted_orders"];

const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

export async function fillAnalytics(url: string, sizes: AnalyticsSizes, log: (m: string) => void): Promise<AnalyticsData> {
  const started = Date.now();
  const steps: AnalyticsData["steps"] = [];
  const notes: string[] = [];
  const rollups: Record<string, number> = {};
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // A step is a few statements; one with parameters runs alone (the protocol allows no more).
  const step = async (name: string, ...statements: (string | [string, unknown[]])[]) => {
    const t0 = Date.now();
    for (const s of statements) {
      if (typeof s === "string") await client.query(s);
      else await client.query(s[0], s[1]);
    }
    steps.push({ step: name, seconds: Math.round((Date.now() - t0) / 100) / 10 });
  };
  try {
    await client.query("set work_mem = '256MB'");
    await client.query("set maintenance_work_mem = '512MB'");
    await client.query("set synchronous_commit = off");
    // The same draws every run (one session, serial plans).
    await client.query("set max_parallel_workers_per_gather = 0");
    // Memoize would reuse one lateral draw for every outer row with the same key (every order
    // with as many lines would buy the same products).
    await client.query("set enable_memoize = off");
    await client.query("select setseed(0.2026)");
    try {
      await client.query("set session_replication_role = replica");
    } catch (err) {
      notes.push(`Loaded with triggers on (session_replication_role needs a superuser: ${(err as Error).message}); slower, same rows.`);
    }
    const { rows: todayRows } = await client.query<{ today: string }>("select to_char((now() at time zone 'utc')::date, 'YYYY-MM-DD') as today");
    const today = todayRows[0]!.today;

    log(`  products ranked by popularity`);
    await step(
      "products: popularity order",
      `create temp table bench_products as
         -- Popularity: a shuffle that favours cheaper products (a shop sells more pillowcases than bed frames).
         select row_number() over (order by price_cents * (0.05 + ('x' || substr(md5(sku || name), 1, 8))::bit(32)::bigint / 4294967296.0))::int as rank,
                id, name, category, price_cents, image_url,
                not unlimited_stock as tracked
           from products;
       create unique index on bench_products (rank);
       analyze bench_products;`,
    );
    const products = Number((await client.query<{ n: string }>("select count(*) as n from bench_products")).rows[0]!.n);
    if (!products) throw new Error("the catalogue has no products to sell");

    log(`  ${sizes.customers.toLocaleString("en-US")} customers (40% accounts)`);
    await step(
      "customers and accounts",
      [
        `create temp table bench_people as
         with drawn as (
           select i,
                  1 + floor(random() * cardinality($2::text[]))::int as f,
                  -- Common surnames are common: a skew toward the top of the list.
                  1 + floor(power(random(), 1.6) * cardinality($3::text[]))::int as l,
                  1 + floor(random() * cardinality($5::text[]))::int as town,
                  random() as u, random() as v
             from generate_series(1, $1::int) i)
         select i, ($2::text[])[f] as first_name, ($3::text[])[l] as last_name,
                lower(($2::text[])[f] || '.' || ($3::text[])[l] || i || '@' || ($4::text[])[1 + i % cardinality($4::text[])]) as email,
                i % 5 < 2 as account,
                case when i % 5 < 2 then 'bench-customer-' || i end as user_id,
                ($5::text[])[town] as city, ($6::text[])[town] as state, ($7::int[])[town] as tax_bp,
                (1 + (i * 37) % 9899)::text || ' ' || ($8::text[])[1 + i % cardinality($8::text[])] as address,
                lpad(floor(v * 99999)::int::text, 5, '0') as zip,
                u
           from drawn`,
        [
          sizes.customers, FIRST_NAMES, SURNAMES, EMAIL_DOMAINS,
          TOWNS.map((t) => t[0]), TOWNS.map((t) => t[1]), TOWNS.map((t) => t[2]), STREETS,
        ],
      ],
      `alter table bench_people add primary key (i);
       analyze bench_people;
       insert into users (id, name, email, email_verified, role, created_at, updated_at)
       select user_id, first_name || ' ' || last_name, email, true, 'customer', t, t
         from (select *, now() - (u * 730) * interval '1 day' as t from bench_people where account) p;`,
    );

    log(`  ${sizes.orders.toLocaleString("en-US")} orders over ${sizes.days} days`);
    await step(
      "orders: who, when, how they ended",
      [
        `create temp table bench_orders as
         with base as (
           select o,
                  -- Every customer orders once; repeat orders lean toward a loyal few.
                  case when o <= $2 then o else 1 + floor(power(random(), 1.3) * $2)::int end as person,
                  -- More orders lately: a growing shop.
                  floor(power(random(), 1.15) * $3)::int as day_offset,
                  random() as u_time, random() as u_pay, random() as u_status, random() as u_disc,
                  random() as u_code, random() as u_ship, random() as u_acct, random() as u_paid,
                  1 + floor(random() * (2 * $4::int - 1))::int as n_lines
             from generate_series(1, $1::int) o),
         timed as (
           select b.*, gen_random_uuid() as id,
                  (now() at time zone 'utc')::date - day_offset as day,
                  ((((now() at time zone 'utc')::date - day_offset)::timestamp at time zone 'utc')
                    + u_time * (case when day_offset = 0 then extract(epoch from now() - ((now() at time zone 'utc')::date::timestamp at time zone 'utc'))
                                     else 86400 end) * interval '1 second') as created_at
             from base b)
         select t.*,
                case when u_pay < 0.01 then case when day_offset = 0 then 'unpaid' else 'expired' end
                     when u_pay < 0.03 then 'failed'
                     when u_pay < 0.05 then 'expired'
                     when u_pay < 0.08 then 'refunded'
                     else 'paid' end as payment_status,
                case when u_pay < 0.01 and day_offset = 0 then 'pending'
                     when u_pay < 0.10 then 'cancelled'
                     -- A few paid orders wait longer than two days to ship (the dashboard's attention list).
                     when created_at > now() - interval '2 days' or u_status < 0.002 then 'processing'
                     when created_at > now() - interval '9 days' then 'shipped'
                     else 'completed' end as status,
                row_number() over (partition by day order by o) as day_seq
           from timed t`,
        [sizes.orders, sizes.customers, sizes.days, sizes.linesPerOrder],
      ],
      "alter table bench_orders add primary key (o); analyze bench_orders;",
    );

    log(`  about ${(sizes.orders * sizes.linesPerOrder).toLocaleString("en-US")} order lines`);
    await step(
      "order lines: products and quantities",
      [
        `create temp table bench_picked as
         select distinct on (o.o, r.rank) o.o, r.rank, r.qty
           from bench_orders o
           cross join lateral (
             -- A steep skew: the first products of the popularity order sell most (the first one
             -- about 4% of the lines, the first fifth of the catalogue about 60%).
             select 1 + floor(power(random(), 3.5) * $1)::int as rank,
                    (array[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,2,2,2,3])[1 + floor(random() * 20)::int] as qty
               from generate_series(1, o.n_lines)) r
          order by o.o, r.rank`,
        [products],
      ],
      `create temp table bench_subtotals as
         select k.o, sum(p.price_cents * k.qty)::bigint as subtotal
           from bench_picked k join bench_products p using (rank)
          group by k.o;
       alter table bench_subtotals add primary key (o);`,
    );

    await step(
      "order money: discount, shipping, tax",
      [
        `create temp table bench_money as
         select o.o, s.subtotal,
                case when o.u_disc < 0.10 then ($1::text[])[c.k] end as code,
                case when o.u_disc < 0.10 then round(s.subtotal * ($2::int[])[c.k] / 100.0)::bigint else 0 end as discount,
                case when o.u_ship < 0.10 then 'Express' else 'Standard' end as shipping_name,
                pe.tax_bp
           from bench_orders o
           join bench_subtotals s using (o)
           join bench_people pe on pe.i = o.person
           -- The first codes are used most.
           cross join lateral (select 1 + floor(power(o.u_code, 1.8) * cardinality($1::text[]))::int as k) c`,
        [DISCOUNT_CODES.map((c) => c[0]), DISCOUNT_CODES.map((c) => c[1])],
      ],
      `alter table bench_money add primary key (o);
       create temp table bench_lines as
         with priced as (
           select k.o, row_number() over (partition by k.o order by k.rank) as line_no, p.id as product_id, p.name, p.image_url,
                  p.price_cents as unit_price, k.qty, p.price_cents * k.qty as line_total, p.tracked
             from bench_picked k join bench_products p using (rank)),
         shared as (
           -- Each line's share of the order discount, the cents left over on the first line.
           select pr.*, m.discount, m.tax_bp, (pr.line_total::bigint * m.discount / nullif(m.subtotal, 0))::bigint as d0
             from priced pr join bench_money m using (o)),
         discounted as (
           select s.*, d0 + case when line_no = 1 then discount - sum(d0) over (partition by o) else 0 end as line_discount
             from shared s)
         select o, line_no, product_id, name, image_url, unit_price, qty, line_total, tracked, line_discount::int as line_discount,
                round((line_total - line_discount) * tax_bp / 10000.0)::int as line_tax
           from discounted;
       drop table bench_picked;
       create temp table bench_taxes as select o, sum(line_tax)::bigint as tax from bench_lines group by o;
       alter table bench_taxes add primary key (o);`,
    );

    const insertOrders = async () => {
      await step(
        "insert orders",
        [
          `insert into orders (id, user_id, order_number, status, payment_status, subtotal_cents, discount_cents, discount_code,
                             shipping_cents, shipping_name, tax_cents, tax_name, tax_rate_basis_points, total_amount_cents,
                             email, first_name, last_name, address, city, state, zip_code, country, payment_provider,
                             payment_reference, paid_at, stock_released_at, version, created_at, updated_at)
         select o.id,
                -- Some account holders check out as guests with the same address: still one customer.
                case when pe.account and o.u_acct > 0.15 then pe.user_id end,
                -- The shop's format (order-number.server.ts); a different number per day's order, scrambled.
                'ORD-' || to_char(o.day, 'YYYYMMDD') || '-' || substr($1::text, (n.x / 29791 % 31 + 1)::int, 1)
                  || substr($1::text, (n.x / 961 % 31 + 1)::int, 1) || substr($1::text, (n.x / 31 % 31 + 1)::int, 1) || substr($1::text, (n.x % 31 + 1)::int, 1),
                o.status, o.payment_status, m.subtotal, m.discount, m.code,
                sh.cents, m.shipping_name, tx.tax, 'Sales tax', m.tax_bp,
                m.subtotal - m.discount + sh.cents + tx.tax,
                -- A few guests type their address with capitals: the same customer all the same.
                case when not pe.account and o.u_acct < 0.05 then initcap(pe.email) else pe.email end,
                pe.first_name, pe.last_name, pe.address, pe.city, pe.state, pe.zip, 'US', 'test',
                case when pa.paid_at is not null then 'bench_' || o.o end,
                pa.paid_at,
                case when o.status = 'cancelled' and pa.paid_at is not null then least(now(), pa.paid_at + interval '1 day') end,
                case when o.status in ('pending', 'processing') then 1 when o.status = 'shipped' then 2 else 3 end,
                o.created_at,
                greatest(o.created_at, coalesce(pa.paid_at, o.created_at))
           from bench_orders o
           join bench_money m using (o)
           join bench_taxes tx using (o)
           join bench_people pe on pe.i = o.person
           -- Day's order n gets n × 7919 + (a number per day) modulo 31⁴: distinct within the day.
           cross join lateral (select (o.day_seq * 7919 + (o.day - date '2000-01-01') * 104729) % 923521 as x) n
           cross join lateral (select case when m.shipping_name = 'Express' then 2500 when m.subtotal - m.discount >= 7500 then 0 else 695 end as cents) sh
           cross join lateral (select case when o.payment_status in ('paid', 'refunded')
                                           then least(now(), o.created_at + (20 + o.u_paid * 900) * interval '1 second') end as paid_at) pa`,
          [ALPHABET],
        ],
      );

      await step(
        "insert order lines",
        `insert into order_items (order_id, product_id, name, image_url, unit_price_cents, quantity, line_total_cents, discount_cents, tax_cents, stock_tracked)
         select o.id, l.product_id, l.name, l.image_url, l.unit_price, l.qty, l.line_total, l.line_discount, l.line_tax, l.tracked
           from bench_lines l join bench_orders o using (o)
          order by l.o, l.line_no`,
      );
    };

    // Secondary indexes are built once after the load, far faster than kept up row by row; the
    // definitions are the migrations' own, read back from the catalog. Constraints stay.
    const { rows: indexes } = await client.query<{ name: string; def: string }>(
      `select i.indexname as name, i.indexdef as def from pg_indexes i
        where i.schemaname = current_schema() and i.tablename in ('orders', 'order_items')
          and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    );
    await step("drop secondary indexes", ...indexes.map((i) => `drop index "${i.name}"`));
    try {
      await insertOrders();
    } finally {
      log(`  rebuilding ${indexes.length} indexes of orders and order lines`);
      await step("build secondary indexes", ...indexes.map((i) => i.def));
    }

    log("  newsletter subscribers, visits, page views, searches");
    await step(
      "newsletter subscribers",
      [
        `insert into newsletter_subscriptions (email, created_at, confirmed_at)
       select email, t, t + interval '7 minutes'
         from (select email, now() - (v * 700) * interval '1 day' as t
                 from (select email, random() as v, random() as w from bench_people) x where w < 0.3) s
       union all
       select 'reader' || g || '@example.net', now() - (random() * 700) * interval '1 day', null
         from generate_series(1, greatest(1, $1::int / 20)) g`,
        [sizes.customers],
      ],
    );

    const { terms, lacking } = searchTermPool();
    await step(
      "visits, page views, searches",
      [
        `create temp table bench_days as
         select d.day::date as day, coalesce(p.paid, 0) as paid,
                -- About 2% of a day's visitors pay; a floor for quiet days.
                200 + round(coalesce(p.paid, 0) / (0.018 + 0.008 * random()))::int as visitors
           from generate_series((now() at time zone 'utc')::date - ($1::int - 1), (now() at time zone 'utc')::date, interval '1 day') d(day)
           left join (select day, count(*) as paid from bench_orders where payment_status = 'paid' group by day) p on p.day = d.day::date`,
        [sizes.days],
      ],
      // The shop has already counted today the visits of the parts run before this one (server
      // times, Lighthouse, the load test's warm-up): the generated year replaces those days.
      `delete from visits_daily where day in (select day from bench_days)`,
      `delete from page_views_daily where day in (select day from bench_days)`,
      `delete from search_terms_daily where day in (select day from bench_days)`,
      `insert into visits_daily (day, page_views, visitors, product_viewers, cart_adders, checkout_starters, cart_adds)
       select day, round(visitors * (2.8 + random()))::int, visitors,
              round(visitors * (0.5 + 0.1 * random()))::int, round(visitors * (0.08 + 0.02 * random()))::int,
              round(visitors * (0.035 + 0.01 * random()))::int, round(visitors * (0.11 + 0.03 * random()))::int
         from bench_days`,
      [
        `insert into page_views_daily (day, path, views)
       select day, path, sum(views)::int
         from (
           select d.day, f.path, greatest(1, round(v.page_views * f.share * (0.8 + 0.4 * random())))::int as views
             from bench_days d join visits_daily v on v.day = d.day
            cross join (values ('/', 0.22), ('/shop', 0.2), ('/cart', 0.05), ('/checkout', 0.02), ('/blog', 0.02),
                               ('/contact', 0.005), ('/auth', 0.01), ('/profile', 0.005), ('/order-success', 0.01)) f(path, share)
           union all
           select d.day, '/blog/' || b.slug, greatest(1, round(v.page_views * 0.002 * random()))::int
             from bench_days d join visits_daily v on v.day = d.day
            cross join (select slug from blog_posts where published order by slug limit 20) b
           union all
           -- About 170 product pages a day, the popular ones most days.
           select d.day, '/product/' || p.id, greatest(1, round(v.page_views * 0.4 / 170 * (0.2 + 1.6 * random()) / sqrt(r.rank)))::int
             from bench_days d join visits_daily v on v.day = d.day
            cross join lateral (select 1 + floor(power(random(), 2) * least(2000, $1::int))::int as rank, d.day as _d
                                  from generate_series(1, 171)) r
             join bench_products p on p.rank = r.rank
         ) views
        group by day, path`,
        [products],
      ],
      [
        `insert into search_terms_daily (day, term, searches, empty_searches)
       select day, term, sum(searches)::int, sum(case when lacking then searches else 0 end)::int
         from (
           select d.day, t.term, t.lacking, greatest(1, round(d.visitors * 0.06 / 400 * 4 / sqrt(r.k) * (0.5 + random())))::int as searches
             from bench_days d
            cross join lateral (select 1 + floor(power(random(), 2) * cardinality($1::text[]))::int as k, d.day as _d from generate_series(1, 400)) r
             join unnest($1::text[], $2::boolean[]) with ordinality t(term, lacking, k) on t.k = r.k
         ) s
        group by day, term`,
        [terms, lacking],
      ],
    );

    await client.query("set session_replication_role = origin").catch(() => {});
    for (const fn of REBUILDS) {
      const { rows } = await client.query<{ kind: string }>("select prokind as kind from pg_proc where proname = $1 limit 1", [fn]);
      if (!rows.length) {
        notes.push(`${fn}() does not exist yet: its roll-up tables were left empty, so the pages read nothing from them.`);
        continue;
      }
      log(`  ${fn}()`);
      await step(`${fn}()`, rows[0]!.kind === "p" ? `call ${fn}()` : `select ${fn}()`);
    }

    log("  VACUUM ANALYZE");
    const t0 = Date.now();
    // Every table, the roll-ups whichever their names.
    await client.query("vacuum (analyze)");
    steps.push({ step: "VACUUM ANALYZE", seconds: Math.round((Date.now() - t0) / 100) / 10 });

    const { rows: c } = await client.query<Record<string, string>>(
      `select (select count(*) from users where role = 'customer') as accounts,
              (select count(*) from orders) as orders,
              (select count(*) from orders where payment_status = 'paid' and status <> 'cancelled') as counted_orders,
              (select coalesce(sum(total_amount_cents), 0) from orders where payment_status = 'paid' and status <> 'cancelled') as revenue_cents,
              (select count(*) from orders where payment_status = 'refunded') as refunded,
              (select count(*) from orders where status = 'cancelled' and payment_status = 'paid') as cancelled_paid,
              (select count(*) from orders where discount_code is not null) as discounted,
              (select count(*) from order_items) as lines,
              (select count(distinct lower(email)) from orders) as ordering_emails,
              (select count(*) from newsletter_subscriptions) as subscribers,
              (select count(*) from page_views_daily) as page_view_rows,
              (select count(*) from search_terms_daily) as search_term_rows,
              (select count(*) from search_terms_daily where empty_searches > 0) as empty_search_rows`,
    );
    const counts = Object.fromEntries(Object.entries(c[0]!).map(([k, v]) => [k, Number(v)]));
    // The roll-ups' sizes, whichever of them this version of the schema has.
    for (const table of ROLLUPS) {
      const { rows } = await client.query<{ there: boolean }>("select to_regclass($1) is not null as there", [table]);
      if (!rows[0]?.there) continue;
      const { rows: n } = await client.query<{ n: string }>(`select count(*) as n from ${table}`);
      rollups[table] = Number(n[0]!.n);
    }

    // Common surnames (the list starts with them), each with one letter changed.
    const typoSurnames = SURNAMES.slice(0, 40).map((s, i) => changeLetter(s, i));
    return { sizes, counts, rollups, steps, seconds: Math.round((Date.now() - started) / 100) / 10, notes, typoSurnames, today };
  } finally {
    await client.end();
  }
}
