import { describe, expect, it } from "vitest";
import { jsonLd, seoMeta, truncateText } from "./seo";

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
