import { describe, expect, it } from "vitest";
import { isPrefetch, isSamePageReload, MAX_PATH_LENGTH, pageViewOf } from "./visits-path.server";

describe("which requests are page views", () => {
  it("counts storefront pages and their navigation data requests as views of the page", () => {
    expect(pageViewOf("/")).toEqual({ path: "/", data: false });
    expect(pageViewOf("/_root.data")).toEqual({ path: "/", data: true });
    expect(pageViewOf("/shop.data")).toEqual({ path: "/shop", data: true });
    expect(pageViewOf("/product/0b7e1c6a-4a4f-4d0a-9a35-2d1b1f0e6c11.data")).toEqual({
      path: "/product/0b7e1c6a-4a4f-4d0a-9a35-2d1b1f0e6c11",
      data: true,
    });
    expect(pageViewOf("/blog/linen-care")).toEqual({ path: "/blog/linen-care", data: false });
    expect(pageViewOf("/checkout")).toEqual({ path: "/checkout", data: false });
  });

  it("leaves out the admin, APIs, resources, files and the payment page", () => {
    for (const path of [
      "/admin",
      "/admin/orders",
      "/admin.data",
      "/admin/analytics.data",
      "/api/events",
      "/api/products",
      "/resources/newsletter",
      "/media/a.jpg",
      "/assets/entry-abc.js",
      "/resized/400/x.webp",
      "/pay/test/cs_1",
      "/healthz",
      "/readyz",
      "/robots.txt",
      "/sitemap.xml",
      "/blog/rss.xml",
      "/favicon.ico",
      "/.data",
    ]) {
      expect(pageViewOf(path), path).toBeNull();
    }
  });

  it("caps a long path, so a 5,000-character URL is never a 5,000-character row", () => {
    const long = `/blog/${"x".repeat(5000)}`;
    expect(pageViewOf(long)!.path).toHaveLength(MAX_PATH_LENGTH);
    expect(pageViewOf(`${long}.data`)!.path).toHaveLength(MAX_PATH_LENGTH);
  });
});

describe("a navigation or a reload of the same page", () => {
  const shop = pageViewOf("/shop.data")!;
  const host = "shop.test";

  it("is a reload when the page asking is the same page with the same query", () => {
    expect(isSamePageReload(shop, "?search=duvet", "http://shop.test/shop?search=duvet", host)).toBe(true);
    // React Router's own parameters are not part of the page.
    expect(isSamePageReload(shop, "?search=duvet&_routes=routes%2Fstore%2Fshop", "http://shop.test/shop?search=duvet", host)).toBe(true);
    expect(isSamePageReload(pageViewOf("/_root.data")!, "", "http://shop.test/", host)).toBe(true);
  });

  it("is a navigation from another page, another query, another site, or without a referer", () => {
    expect(isSamePageReload(shop, "", "http://shop.test/", host)).toBe(false);
    expect(isSamePageReload(shop, "?search=quilt", "http://shop.test/shop?search=duvet", host)).toBe(false);
    expect(isSamePageReload(shop, "", "http://elsewhere.test/shop", host)).toBe(false);
    expect(isSamePageReload(shop, "", undefined, host)).toBe(false);
    expect(isSamePageReload(shop, "", "not a url", host)).toBe(false);
  });

  it("knows a prefetch", () => {
    expect(isPrefetch({ "sec-purpose": "prefetch" })).toBe(true);
    expect(isPrefetch({ purpose: "prefetch" })).toBe(true);
    expect(isPrefetch({})).toBe(false);
  });
});
