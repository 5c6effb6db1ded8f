import { describe, expect, it } from "vitest";
import { swatchFor } from "./swatches.server";

describe("swatchFor", () => {
  it("gives a colour name its swatch, whole or by its first known word, whatever the case", () => {
    expect(swatchFor("Sage")).toBe("#a3b18a");
    expect(swatchFor("  natural oak ")).toBe("#e8dcc4");
    expect(swatchFor("Deep Forest Green")).toBe("#2f4f3a");
  });

  it("keeps a hex colour as given and greys out a name it does not know", () => {
    expect(swatchFor("#1A2b3C")).toBe("#1A2b3C");
    expect(swatchFor("Unobtainium")).toBe("#b0b0b0");
  });
});
