import { describe, expect, it } from "vitest";
import { loader as productsApi } from "~/routes/resources/products";
import { loader as robotsLoader } from "~/routes/resources/robots";
import { loader as sitemapLoader } from "~/routes/resources/sitemap";
import { loader as homeLoader } from "~/routes/store/home";
import { loader as productLoader } from "~/routes/store/product";
import { loader as shopLoader } from "~/routes/store/shop";
import { makePost } from "../factories/posts";
import { makeCategory, makeProduct, makeProducts } from "../factories/products";
import { useTestDatabase } from "../setup/database";

// This file's database holds only what these tests create, so whole-catalogue lists are exact.
const t = useTestDatabase();

const args = (path: string, params: Record<string, string> = {}) =>
  ({ request: new Request(`http://localhost:3000${path}`), params, context: {} }) as never;

async function redirectOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) return thrown.headers.get("Location")!;
    throw thrown;
  }
  throw new Error("expected a redirect");
}

type ApiPage = { items: { id: string; name: string }[]; hasMore: boolean };

describe("home featured list", () => {
  it("shows 15 active products, featured first then newest, and pages by 15 until fewer return", async () => {
    const now = Date.now();
    // 20 active: 2 featured (older than every other), 18 plain; 3 inactive ones, one featured.
    await makeProducts(t.db, 23, (i) => ({
      name: `Home ${String(i).padStart(2, "0")}`,
      featured: i < 2 || i === 22,
      active: i < 20,
      createdAt: new Date(now - (i < 2 ? 1_000_000 + i * 1000 : i * 1000)),
    }));
    const first = await homeLoader(args("/"));
    const names = first.featured.items.map((p) => p.name);
    expect(names).toHaveLength(15);
    expect(names.slice(0, 3)).toEqual(["Home 00", "Home 01", "Home 02"]);
    expect(names).not.toContain("Home 22");
    expect(first.featured.hasMore).toBe(true);
    expect(first.canonical).toBe("http://localhost:3000/");

    const res = await productsApi(args("/api/products?list=featured&page=2"));
    const page2 = (await (res as Response).json()) as ApiPage;
    expect(page2.items.map((p) => p.name)).toEqual(["Home 15", "Home 16", "Home 17", "Home 18", "Home 19"]);
    expect(page2.hasMore).toBe(false);

    // Without JavaScript, ?page=2 renders both pages at once.
    const both = await homeLoader(args("/?page=2"));
    expect(both.featured.items).toHaveLength(20);
    const garbage = await homeLoader(args("/?page=-3x"));
    expect(garbage.featured.items).toHaveLength(15);
  });
});

describe("/shop loader", () => {
  it("writes the specified URL: category omitted when 'all', sort when 'featured', the term trimmed", async () => {
    await makeCategory(t.db, { name: "Bedding" });
    expect(await redirectOf(() => shopLoader(args("/shop?search=&category=all&sort=featured")))).toBe("/shop");
    expect(await redirectOf(() => shopLoader(args("/shop?search=++duvet++&category=all&sort=featured")))).toBe(
      "/shop?search=duvet",
    );
    expect(await redirectOf(() => shopLoader(args("/shop?category=bedding&sort=price-low")))).toBe(
      "/shop?category=Bedding&sort=price-low",
    );
    expect(await redirectOf(() => shopLoader(args("/shop?page=1&utm_source=mail")))).toBe("/shop?utm_source=mail");
  });

  it("falls back to the defaults for a garbage or inactive category and sort, never an error", async () => {
    await makeCategory(t.db, { name: "Retired", active: false });
    for (const qs of ["category=%3Cscript%3E", "sort=%27%3B+drop+table", "category=Retired", "sort=", "category="]) {
      expect(await redirectOf(() => shopLoader(args(`/shop?${qs}`)))).toBe("/shop");
    }
    const { data } = await shopLoader(args("/shop?sort=rating"));
    expect(data.filters).toEqual({ search: "", category: null, sort: "rating" });
    expect(data.categories).toContain("Bedding");
    expect(data.categories).not.toContain("Retired");
  });

  it("reads control characters in a search (a NUL byte PostgreSQL cannot hold) as spaces, never an error", async () => {
    await makeProduct(t.db, { name: "Nul Byte Quilt" });
    expect(await redirectOf(() => shopLoader(args("/shop?search=%00nul%00")))).toBe("/shop?search=nul");
    expect(await redirectOf(() => shopLoader(args("/shop?search=nul%00byte")))).toBe("/shop?search=nul+byte");
    const { data } = await shopLoader(args("/shop?search=nul+byte"));
    expect(data.filters.search).toBe("nul byte");
    expect(data.result.items.map((p: { name: string }) => p.name)).toEqual(["Nul Byte Quilt"]);
    const res = (await productsApi(args("/api/products?search=%00%0A&page=2"))) as Response;
    expect(res.status).toBe(200);
  });

  it("counts and lists only active products, 24 at a time", async () => {
    await makeCategory(t.db, { name: "Lighting" });
    await makeProducts(t.db, 26, (i) => ({ category: "Lighting", active: i < 25 }));
    const { data } = await shopLoader(args("/shop?category=Lighting"));
    expect(data.result).toMatchObject({ total: 25, hasMore: true });
    expect(data.result.items).toHaveLength(24);
    expect(data.canonical).toBe("http://localhost:3000/shop?category=Lighting");

    const res = (await productsApi(args("/api/products?category=Lighting&page=2"))) as Response;
    const page2 = (await res.json()) as ApiPage;
    expect(page2.items).toHaveLength(1);
    expect(page2.hasMore).toBe(false);
    expect(page2.items[0]!.id).not.toBe(data.result.items[0]!.id);
  });
});

describe("product page loader", () => {
  it("returns an active product with its canonical URL", async () => {
    const p = await makeProduct(t.db, { name: "Wool Throw", imageUrl: "/media/seed/throw.webp" });
    const data = (await productLoader(args(`/product/${p.id}`, { id: p.id }))) as Exclude<
      Awaited<ReturnType<typeof productLoader>>,
      { init: unknown }
    >;
    expect(data.product).toMatchObject({ id: p.id, name: "Wool Throw", imageUrl: "/media/seed/throw.webp" });
    expect(data.canonical).toBe(`http://localhost:3000/product/${p.id}`);
    expect(data.image).toBe("http://localhost:3000/media/seed/throw.webp");
  });

  it("answers 404 for a missing id, an inactive product and something that is not an id", async () => {
    const inactive = await makeProduct(t.db, { active: false });
    for (const id of [inactive.id, "00000000-0000-4000-8000-000000000000", "not-an-id", "1' or '1'='1", "x".repeat(500)]) {
      const result = (await productLoader(args(`/product/${encodeURIComponent(id)}`, { id }))) as unknown as {
        data: { product: unknown };
        init: { status: number };
      };
      expect(result.init.status).toBe(404);
      expect(result.data.product).toBeNull();
    }
  });
});

describe("sitemap.xml and robots.txt", () => {
  it("lists the fixed pages, published posts and active products only", async () => {
    const active = await makeProduct(t.db, { name: "Listed" });
    const hidden = await makeProduct(t.db, { name: "Unlisted", active: false });
    await makePost(t.db, { slug: "published-post", published: true });
    await makePost(t.db, { slug: "draft-post", published: false });
    const res = (await sitemapLoader(args("/sitemap.xml"))) as Response;
    expect(res.headers.get("content-type")).toContain("application/xml");
    const xml = await res.text();
    for (const path of ["/", "/shop", "/blog", "/contact", "/privacy", "/accessibility", "/blog/published-post", `/product/${active.id}`]) {
      expect(xml).toContain(`<loc>http://localhost:3000${path}</loc>`);
    }
    expect(xml).not.toContain(hidden.id);
    expect(xml).not.toContain("draft-post");
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  });

  it("serves parts of the sitemap on request and 404s a page past the end", async () => {
    const pages = await ((await sitemapLoader(args("/sitemap.xml?part=pages"))) as Response).text();
    expect(pages).toContain("<loc>http://localhost:3000/shop</loc>");
    expect(pages).not.toContain("/product/");
    const products = await ((await sitemapLoader(args("/sitemap.xml?part=products&page=1"))) as Response).text();
    expect(products).toContain("/product/");
    expect(((await sitemapLoader(args("/sitemap.xml?part=products&page=99"))) as Response).status).toBe(404);
  });

  it("keeps private pages out of robots.txt and points at the sitemap", async () => {
    const text = await (robotsLoader() as Response).text();
    for (const path of ["/admin", "/cart", "/checkout", "/profile", "/auth"]) expect(text).toContain(`Disallow: ${path}\n`);
    expect(text).toContain("Sitemap: http://localhost:3000/sitemap.xml");
  });
});
