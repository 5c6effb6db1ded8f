import { randomInt } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ShopFilters } from "~/lib/product";
import { listShopProducts, SEARCH_COUNT_CAP, TYPO_COUNT_CAP } from "~/server/catalog/products/storefront.server";
import { makeProduct, makeProducts } from "../factories/products";
import { useTestDatabase } from "../setup/database";

const t = useTestDatabase();

/** Letters that never occur in the factories' hex suffixes, so a token matches only its own rows. */
function token(length = 8) {
  const letters = "ghjkmnpqrstvwxyz";
  return Array.from({ length }, () => letters[randomInt(letters.length)]).join("");
}

/** Every test works inside its own category, so rows from other tests never interfere. */
function inCategory(category: string, filters: Partial<ShopFilters> = {}): ShopFilters {
  return { search: "", category, sort: "featured", ...filters };
}

const firstPage = { offset: 0, limit: 24 };
const names = (r: { items: { name: string }[] }) => r.items.map((p) => p.name);

describe("shop search", () => {
  it("matches name, description and category case-insensitively, active products only", async () => {
    const cat = `Cat ${token()}`;
    const word = token();
    await makeProduct(t.db, { category: cat, name: `The ${word.toUpperCase()} Throw` });
    await makeProduct(t.db, { category: cat, name: "Plain Lamp", description: `Pairs with the ${word} range.` });
    await makeProduct(t.db, { category: cat, name: "Hidden One", description: word, active: false });
    await makeProduct(t.db, { category: cat, name: "Unrelated Vase" });
    const byText = await listShopProducts(t.db, inCategory(cat, { search: word }), firstPage);
    expect(names(byText).sort()).toEqual(["Plain Lamp", `The ${word.toUpperCase()} Throw`]);
    expect(byText.total).toBe(2);

    const catWord = token();
    const category = `Bedding ${catWord}`;
    await makeProduct(t.db, { category, name: "Category Match" });
    const byCategory = await listShopProducts(t.db, { search: catWord.toUpperCase(), category: null, sort: "featured" }, firstPage);
    expect(names(byCategory)).toEqual(["Category Match"]);
  });

  it("requires every word of the term, in any order", async () => {
    const cat = `Cat ${token()}`;
    const [a, b] = [token(), token()];
    await makeProduct(t.db, { category: cat, name: `${a} Sheet`, description: `Goes with ${b}.` });
    await makeProduct(t.db, { category: cat, name: `${a} Pillow` });
    const result = await listShopProducts(t.db, inCategory(cat, { search: `${b}   ${a}` }), firstPage);
    expect(names(result)).toEqual([`${a} Sheet`]);
  });

  it("finds a product by its new name, description or category as soon as it is saved, and no longer by the old", async () => {
    const [oldWord, newName, newText, newCategory] = [token(), token(), token(), token()];
    const cat = `Cat ${token()}`;
    const product = await makeProduct(t.db, { category: cat, name: `${oldWord} Quilt`, description: `Soft ${oldWord}.` });
    const found = async (word: string, category: string | null = null) =>
      names(await listShopProducts(t.db, { search: word, category, sort: "featured" }, firstPage));
    expect(await found(oldWord)).toEqual([`${oldWord} Quilt`]);

    await t.db.execute(sql`update products set name = ${`${newName} Quilt`}, description = ${`Warm ${newText}.`} where id = ${product.id}`);
    expect(await found(oldWord)).toEqual([]);
    expect(await found(newName.toUpperCase())).toEqual([`${newName} Quilt`]);
    expect(await found(`${newText} ${newName}`)).toEqual([`${newName} Quilt`]);

    await t.db.execute(sql`update products set category = ${`Bedding ${newCategory}`} where id = ${product.id}`);
    expect(await found(newCategory, `Bedding ${newCategory}`)).toEqual([`${newName} Quilt`]);
    expect(await found(cat.split(" ")[1]!)).toEqual([]);
  });

  it("matches %, _, \\, quotes, regex and SQL syntax literally", async () => {
    const cat = `Cat ${token()}`;
    await makeProducts(t.db, 10, (i) => ({
      category: cat,
      name: [
        "100% Cotton Sheet",
        "1000 Thread Sheet",
        "Pillow_Case Deluxe",
        "PillowXCase Basic",
        "Back\\slash Blanket",
        "Backslash Quilt",
        "O'Brien's \"Cosy\" Throw",
        "Star .* Lamp",
        "Starry Lamp",
        "Robert'); DROP TABLE products;-- Rug",
      ][i],
    }));
    const search = async (term: string) => names(await listShopProducts(t.db, inCategory(cat, { search: term }), firstPage));
    expect(await search("100%")).toEqual(["100% Cotton Sheet"]);
    expect(await search("w_c")).toEqual(["Pillow_Case Deluxe"]);
    expect(await search("k\\s")).toEqual(["Back\\slash Blanket"]);
    expect(await search("o'brien's \"cosy\"")).toEqual(["O'Brien's \"Cosy\" Throw"]);
    expect(await search(".*")).toEqual(["Star .* Lamp"]);
    expect(await search("%")).toEqual(["100% Cotton Sheet"]);
    expect(await search("_")).toEqual(["Pillow_Case Deluxe"]);
    expect(await search("'); DROP TABLE products;--")).toEqual(["Robert'); DROP TABLE products;-- Rug"]);
    const [{ n }] = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from products`)).rows as [{ n: number }];
    expect(n).toBeGreaterThanOrEqual(10);
  });

  it("works with a 1,000-character term", async () => {
    const cat = `Cat ${token()}`;
    const long = token(1000);
    await makeProduct(t.db, { category: cat, name: "Long Story Throw", description: `Intro ${long} outro` });
    await makeProduct(t.db, { category: cat, name: "Short Story Throw" });
    const found = await listShopProducts(t.db, inCategory(cat, { search: long }), firstPage);
    expect(names(found)).toEqual(["Long Story Throw"]);
    const words = Array.from({ length: 125 }, () => token(7)).join(" ");
    expect(words.length).toBe(999);
    const none = await listShopProducts(t.db, inCategory(cat, { search: words }), firstPage);
    expect(none).toMatchObject({ items: [], total: 0, hasMore: false });
  });

  it("forgives a typo: 'duvte' and 'pilow' find duvets and pillows, ranked below exact matches", async () => {
    const cat = `Cat ${token()}`;
    await makeProduct(t.db, { category: cat, name: "Linen Duvet Cover", featured: true });
    await makeProduct(t.db, { category: cat, name: "Down Pillow", featured: true });
    await makeProduct(t.db, { category: cat, name: "Travel Bag", description: "Holds a folded duvte or pilow (our old spelling)." });
    await makeProduct(t.db, { category: cat, name: "Oak Bench" });

    const duvte = await listShopProducts(t.db, inCategory(cat, { search: "duvte" }), firstPage);
    // The literal match comes first even though the duvet is featured (the default sort).
    expect(names(duvte)).toEqual(["Travel Bag", "Linen Duvet Cover"]);
    expect(duvte.total).toBe(2);

    const pilow = await listShopProducts(t.db, inCategory(cat, { search: "pilow", sort: "price-high" }), firstPage);
    expect(names(pilow)).toEqual(["Travel Bag", "Down Pillow"]);
  });

  it("pages from the literal matches into the typo matches, and past the end, with the same total on every page", async () => {
    const cat = `Cat ${token()}`;
    await makeProducts(t.db, 30, (i) => ({ category: cat, name: `Pillow ${String(i).padStart(2, "0")}`, priceCents: 10_000 - i }));
    await makeProducts(t.db, 10, (i) => ({ category: cat, name: `Pilow Case ${i}`, description: "Spelt the old way.", priceCents: 500 - i }));
    const search = (offset: number) => listShopProducts(t.db, inCategory(cat, { search: "pillow", sort: "price-high" }), { offset, limit: 24 });

    const [first, second, past] = [await search(0), await search(24), await search(48)];
    for (const p of [first, second, past]) expect(p).toMatchObject({ total: 40, totalIsCapped: false });
    expect(names(first)).toEqual(Array.from({ length: 24 }, (_, i) => `Pillow ${String(i).padStart(2, "0")}`));
    expect(first.hasMore).toBe(true);
    // The last six literal matches, then every typo match, each group in the chosen order.
    expect(names(second)).toEqual([
      ...Array.from({ length: 6 }, (_, i) => `Pillow ${24 + i}`),
      ...Array.from({ length: 10 }, (_, i) => `Pilow Case ${i}`),
    ]);
    expect(second.hasMore).toBe(false);
    expect(past).toMatchObject({ items: [], hasMore: false });

    // A literal-only search asked for a page after its last match still says how many there are.
    const word = token();
    await makeProducts(t.db, 3, (i) => ({ category: cat, name: `${word} ${i}` }));
    const beyond = await listShopProducts(t.db, inCategory(cat, { search: `${word} 1` }), { offset: 24, limit: 24 });
    expect(beyond).toMatchObject({ items: [], total: 1, hasMore: false });
  });

  it("counts typo matches up to their own cap", async () => {
    const cat = `Cat ${token()}`;
    await makeProducts(t.db, TYPO_COUNT_CAP + 5, (i) => ({ category: cat, name: `Duvet Insert ${i}` }));
    const result = await listShopProducts(t.db, inCategory(cat, { search: "duvte" }), firstPage);
    expect(result).toMatchObject({ total: TYPO_COUNT_CAP, totalIsCapped: true, hasMore: true });
    expect(result.items).toHaveLength(24);
    const page2 = await listShopProducts(t.db, inCategory(cat, { search: "duvte" }), { offset: 24, limit: 24 });
    expect(page2.items).toHaveLength(24);
    expect(page2.items.some((p) => result.items.some((q) => q.id === p.id))).toBe(false);
  });

  it("matches a one- or two-character word at the start of a word", async () => {
    const cat = `Cat ${token()}`;
    await makeProduct(t.db, { category: cat, name: "TV Bench" });
    await makeProduct(t.db, { category: cat, name: "ATV Poster" });
    const result = await listShopProducts(t.db, inCategory(cat, { search: "tv" }), firstPage);
    expect(names(result)).toEqual(["TV Bench"]);
  });

  it("counts up to the cap and then reports a lower bound", async () => {
    const cat = `Cat ${token()}`;
    const word = token();
    await makeProducts(t.db, SEARCH_COUNT_CAP + 5, (i) => ({ category: cat, name: `${word} Napkin ${i}` }));
    const result = await listShopProducts(t.db, inCategory(cat, { search: word }), firstPage);
    expect(result).toMatchObject({ total: SEARCH_COUNT_CAP, totalIsCapped: true, hasMore: true });
    expect(result.items).toHaveLength(24);
    const plain = await listShopProducts(t.db, inCategory(cat), firstPage);
    expect(plain).toMatchObject({ total: SEARCH_COUNT_CAP + 5, totalIsCapped: false });
    // Every product of the category matches, so the search lists them in the same order.
    expect(names(result)).toEqual(names(plain));
    const page3 = await listShopProducts(t.db, inCategory(cat, { search: word, sort: "price-high" }), { offset: 48, limit: 24 });
    const plain3 = await listShopProducts(t.db, inCategory(cat, { sort: "price-high" }), { offset: 48, limit: 24 });
    expect(names(page3)).toEqual(names(plain3));
  });

  it("lists a broad term's matches in order even when they all sort after thousands of other products", async () => {
    const cat = `Cat ${token()}`;
    const word = token();
    const createdAt = new Date("2020-01-01T00:00:00Z");
    // 4,500 featured products first in the order, none matching; then 1,010 older matches.
    await makeProducts(t.db, 4500, () => ({ category: cat, featured: true }));
    await makeProducts(t.db, SEARCH_COUNT_CAP + 10, (i) => ({
      category: cat,
      name: `${word} Coaster ${String(i).padStart(4, "0")}`,
      createdAt: new Date(createdAt.getTime() - i * 1000),
    }));
    const result = await listShopProducts(t.db, inCategory(cat, { search: word }), firstPage);
    expect(result).toMatchObject({ total: SEARCH_COUNT_CAP, totalIsCapped: true, hasMore: true });
    expect(names(result)).toEqual(Array.from({ length: 24 }, (_, i) => `${word} Coaster ${String(i).padStart(4, "0")}`));
  });
});

describe("shop listing", () => {
  it("filters by category and counts every matching active product", async () => {
    const cat = `Cat ${token()}`;
    await makeProducts(t.db, 30, () => ({ category: cat }));
    await makeProducts(t.db, 3, () => ({ category: cat, active: false }));
    await makeProduct(t.db, { category: `Other ${token()}` });
    const page1 = await listShopProducts(t.db, inCategory(cat), firstPage);
    expect(page1).toMatchObject({ total: 30, totalIsCapped: false, hasMore: true });
    expect(page1.items).toHaveLength(24);
    const page2 = await listShopProducts(t.db, inCategory(cat), { offset: 24, limit: 24 });
    expect(page2).toMatchObject({ total: 30, hasMore: false });
    expect(page2.items).toHaveLength(6);
    const ids = new Set([...page1.items, ...page2.items].map((p) => p.id));
    expect(ids.size).toBe(30);
  });

  it("sorts by featured then newest, name, price both ways and rating", async () => {
    const cat = `Cat ${token()}`;
    const now = Date.now();
    await makeProducts(t.db, 4, (i) => ({
      category: cat,
      name: ["Cedar", "Alder", "Birch", "Dogwood"][i],
      priceCents: [3000, 1000, 4000, 2000][i],
      rating: [4.1, 4.9, 3.2, 4.9][i],
      reviewCount: [10, 5, 50, 80][i],
      featured: i === 2,
      createdAt: new Date(now - i * 60_000),
    }));
    const order = async (sort: ShopFilters["sort"]) => names(await listShopProducts(t.db, inCategory(cat, { sort }), firstPage));
    expect(await order("featured")).toEqual(["Birch", "Cedar", "Alder", "Dogwood"]);
    expect(await order("name")).toEqual(["Alder", "Birch", "Cedar", "Dogwood"]);
    expect(await order("price-low")).toEqual(["Alder", "Dogwood", "Cedar", "Birch"]);
    expect(await order("price-high")).toEqual(["Birch", "Cedar", "Dogwood", "Alder"]);
    expect(await order("rating")).toEqual(["Dogwood", "Alder", "Cedar", "Birch"]);
  });

  it("pages through identical sort keys without repeating or losing a product", async () => {
    const cat = `Cat ${token()}`;
    const createdAt = new Date("2024-01-01T00:00:00Z");
    await makeProducts(t.db, 50, () => ({ category: cat, priceCents: 1500, createdAt }));
    for (const sort of ["featured", "price-low", "price-high"] as const) {
      const seen: string[] = [];
      for (let offset = 0; offset < 50; offset += 24) {
        const page = await listShopProducts(t.db, inCategory(cat, { sort }), { offset, limit: 24 });
        seen.push(...page.items.map((p) => p.id));
      }
      expect(new Set(seen).size).toBe(50);
    }
  });

  it("returns only what a card shows, with the first http(s) image or the fallback", async () => {
    const cat = `Cat ${token()}`;
    await makeProduct(t.db, {
      category: cat,
      name: "Two Images",
      imageUrl: "not-a-url, https://cdn.example.com/a.jpg, https://cdn.example.com/b.jpg",
    });
    await makeProduct(t.db, { category: cat, name: "No Image", imageUrl: "" });
    const { items } = await listShopProducts(t.db, inCategory(cat, { sort: "name" }), firstPage);
    expect(items.map((p) => p.imageUrl)).toEqual(["/images/product-placeholder.svg", "https://cdn.example.com/a.jpg"]);
    expect(Object.keys(items[0]!).sort()).toEqual(
      ["colors", "id", "imageUrl", "lowestPriceCents", "name", "originalPriceCents", "priceCents", "rating", "reviewCount", "stockQuantity", "swatches", "unlimitedStock"].sort(),
    );
  });
});
