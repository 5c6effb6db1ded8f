import { describe, expect, it } from "vitest";
import {
  canAddToCart,
  FALLBACK_PRODUCT_IMAGE,
  firstImageUrl,
  isOnSale,
  parsePage,
  searchHref,
  shopHref,
} from "./product";

describe("firstImageUrl", () => {
  it("takes the first http(s) URL from a list", () => {
    expect(firstImageUrl("https://a.test/1.jpg, https://a.test/2.jpg")).toBe("https://a.test/1.jpg");
    expect(firstImageUrl("https://a.test/1.jpg,https://a.test/2.jpg")).toBe("https://a.test/1.jpg");
    expect(firstImageUrl("junk | http://b.test/x.png; https://c.test/y.png")).toBe("http://b.test/x.png");
    expect(firstImageUrl('["https://cdn.test/w_300,h_200/p.jpg"]')).toBe("https://cdn.test/w_300,h_200/p.jpg");
  });

  it("accepts a path on this site and falls back for anything else", () => {
    expect(firstImageUrl("/media/seed/a.webp")).toBe("/media/seed/a.webp");
    expect(firstImageUrl("not a url, /media/seed/b.webp")).toBe("/media/seed/b.webp");
    for (const bad of ["", "   ", null, undefined, "image.jpg", "//evil.test/x.png", "javascript:alert(1)", "ftp://x/y.png"]) {
      expect(firstImageUrl(bad)).toBe(FALLBACK_PRODUCT_IMAGE);
    }
  });
});

describe("product rules", () => {
  it("disables Add to Cart when stock is limited and zero or missing", () => {
    expect(canAddToCart({ unlimitedStock: true, stockQuantity: 0 })).toBe(true);
    expect(canAddToCart({ unlimitedStock: false, stockQuantity: 3 })).toBe(true);
    expect(canAddToCart({ unlimitedStock: false, stockQuantity: 0 })).toBe(false);
    expect(canAddToCart({ unlimitedStock: false, stockQuantity: null })).toBe(false);
  });

  it("strikes the original price only when it is higher", () => {
    expect(isOnSale({ priceCents: 1000, originalPriceCents: 1200 })).toBe(true);
    expect(isOnSale({ priceCents: 1000, originalPriceCents: 1000 })).toBe(false);
    expect(isOnSale({ priceCents: 1000, originalPriceCents: 900 })).toBe(false);
    expect(isOnSale({ priceCents: 1000, originalPriceCents: null })).toBe(false);
  });
});

describe("shop URLs", () => {
  it("omits category 'all', sort 'featured' and an empty search", () => {
    expect(shopHref({ search: "", category: null, sort: "featured" })).toBe("/shop");
    expect(shopHref({ search: "linen duvet", category: "Bedding", sort: "price-low" })).toBe(
      "/shop?search=linen+duvet&category=Bedding&sort=price-low",
    );
    expect(shopHref({ search: "", category: null, sort: "featured" }, 3)).toBe("/shop?page=3");
  });

  it("trims and encodes the header's term; a blank one goes to plain /shop", () => {
    expect(searchHref("   ")).toBe("/shop");
    expect(searchHref("  100% & more ")).toBe("/shop?search=100%25+%26+more");
  });

  it("reads a page number, anything else is page 1", () => {
    expect(parsePage("3")).toBe(3);
    expect(parsePage("0")).toBe(1);
    expect(parsePage("-2")).toBe(1);
    expect(parsePage("2.5")).toBe(1);
    expect(parsePage(null)).toBe(1);
    expect(parsePage("99", 20)).toBe(20);
  });
});

describe("ownImageSrcSet", () => {
  it("lists resized widths for our own uploads only", async () => {
    const { ownImageSrcSet } = await import("./images");
    expect(ownImageSrcSet("/media/seed/a.webp", 640)).toBe("/resized/320/seed/a.webp 320w, /resized/640/seed/a.webp 640w");
    expect(ownImageSrcSet("https://cdn.test/a.jpg")).toBeUndefined();
    expect(ownImageSrcSet("/images/product-placeholder.svg")).toBeUndefined();
    expect(ownImageSrcSet("/media/../x.png")).toBeUndefined();
    expect(ownImageSrcSet("/media/a.webp?v=2")).toBeUndefined();
  });
});
