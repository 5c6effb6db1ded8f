import { describe, expect, it } from "vitest";
import { brandFrom, jsonLd, seoMeta, truncateText } from "./seo";

describe("seo helpers", () => {
  it("builds title, description, canonical and Open Graph tags", () => {
    const tags = seoMeta({ title: "T", description: "D", canonical: "https://shop.test/x", image: "https://shop.test/i.png" });
    expect(tags).toContainEqual({ title: "T" });
    expect(tags).toContainEqual({ name: "description", content: "D" });
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: "https://shop.test/x" });
    expect(tags).toContainEqual({ property: "og:image", content: "https://shop.test/i.png" });
    expect(tags).toContainEqual({ property: "og:url", content: "https://shop.test/x" });
  });

  it("cuts long descriptions at a word", () => {
    const text = truncateText("word ".repeat(100), 160);
    expect(text.length).toBeLessThanOrEqual(160);
    expect(text.endsWith("word…")).toBe(true);
  });

  it("keeps JSON-LD from closing its script element", () => {
    const out = jsonLd({ name: "</script><script>alert(1)</script>" });
    expect(out).not.toContain("</script>");
    expect(JSON.parse(out)).toEqual({ name: "</script><script>alert(1)</script>" });
  });
});

describe("brandFrom", () => {
  it("names the shop by its saved logo text, and by the default when there is none", () => {
    const root = (logo_text: string) => [{ id: "root", data: { settings: { site_branding: { logo_text } } } }, { id: "routes/store/contact" }];
    expect(brandFrom(root("Moonlit Linen"))).toBe("Moonlit Linen");
    expect(brandFrom(root(""))).toBe("Linen & Loft");
    expect(brandFrom([undefined, { id: "routes/store/not-found" }])).toBe("Linen & Loft");
  });
});
