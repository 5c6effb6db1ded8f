import { describe, expect, it } from "vitest";
import { categoryFrom, firstImageUrl, parseFlag, parsePriceCents, parseStock, sanitizeDescription, splitList, stripTags } from "./fields.server";

describe("prices in an import file", () => {
  it("reads dollars into cents, with or without a currency sign and thousands commas", () => {
    expect(parsePriceCents("12.50")).toBe(1250);
    expect(parsePriceCents("$1,299.00")).toBe(129900);
    expect(parsePriceCents("USD 12")).toBe(1200);
    expect(parsePriceCents(".99")).toBe(99);
    expect(parsePriceCents("")).toBeNull();
  });

  it("rounds more than two decimals to the cent", () => {
    expect(parsePriceCents("11.055")).toBe(1106);
    expect(parsePriceCents("11.054")).toBe(1105);
  });

  it("refuses a decimal comma, words and negative amounts with a message", () => {
    expect(parsePriceCents("12,50")).toEqual({ error: "Invalid price '12,50': use a dot for decimals (for example 12.50)" });
    expect(parsePriceCents("abc")).toEqual({ error: "Invalid price 'abc': expected an amount such as 12.50" });
    expect(parsePriceCents("-5")).toEqual({ error: "Price cannot be negative ('-5')" });
    expect(parsePriceCents("99999999")).toEqual({ error: "Price '99999999' is above $1,000,000.00" });
    expect(parsePriceCents("1.2.3", "Sale price")).toEqual({ error: "Invalid sale price '1.2.3': expected an amount such as 12.50" });
  });
});

describe("stock in an import file", () => {
  it("reads whole numbers and refuses negative, fractional and non-numeric counts", () => {
    expect(parseStock("12")).toBe(12);
    expect(parseStock("12.0")).toBe(12);
    expect(parseStock("")).toBeNull();
    expect(parseStock("-3")).toEqual({ error: "Stock cannot be negative ('-3')" });
    expect(parseStock("2.5")).toEqual({ error: "Stock must be a whole number ('2.5')" });
    expect(parseStock("lots")).toEqual({ error: "Invalid stock 'lots': expected a whole number" });
  });
});

describe("text cells", () => {
  it("strips markup from titles and decodes entities", () => {
    expect(stripTags("<b>Linen</b> &amp; Loft <script>alert(1)</script>Sheet")).toBe("Linen & Loft Sheet");
    expect(stripTags("  Plain   title ")).toBe("Plain title");
    expect(stripTags("Caf&#233; &lt;3")).toBe("Café <3");
  });

  it("turns description HTML into safe plain text, keeping paragraphs and list items", () => {
    const html =
      '<p onclick="x()">Soft <strong>linen</strong> &amp; cotton<script>steal()</script></p><ul><li>Queen</li><li>King</li></ul><style>p{}</style>Line<br>two &lt;3';
    expect(sanitizeDescription(html)).toBe("Soft linen & cotton\n• Queen\n• King\n\nLine\ntwo <3");
    expect(sanitizeDescription('<img src=x onerror="alert(1)"><a href="javascript:alert(1)">click</a>')).toBe("click");
    expect(sanitizeDescription("Just words, no markup")).toBe("Just words, no markup");
    expect(sanitizeDescription("Linen &amp; Loft & friends")).toBe("Linen & Loft & friends");
  });

  it("takes the first web address from an image cell", () => {
    expect(firstImageUrl("https://a.test/1.jpg, https://a.test/2.jpg")).toBe("https://a.test/1.jpg");
    expect(firstImageUrl("see http://x.test/a.png?w=1 here")).toBe("http://x.test/a.png?w=1");
    expect(firstImageUrl("/media/products/1.webp")).toBe("/media/products/1.webp");
    expect(firstImageUrl("photo.jpg")).toBe("");
  });

  it("splits lists without blanks or repeats, and reads category paths", () => {
    expect(splitList("Red, red; Blue | , Green")).toEqual(["Red", "Blue", "Green"]);
    expect(categoryFrom("Clothing > Tshirts, Music")).toBe("Tshirts");
    expect(categoryFrom("Bedding")).toBe("Bedding");
  });

  it("reads yes/no cells", () => {
    expect(parseFlag("TRUE")).toBe(true);
    expect(parseFlag("0")).toBe(false);
    expect(parseFlag("draft")).toBe(false);
    expect(parseFlag("maybe")).toBeUndefined();
  });
});
