import { describe, expect, it } from "vitest";
import { linkify } from "./linkify";

describe("linkify", () => {
  it("makes http and https addresses links and leaves the rest as text", () => {
    expect(linkify("Confirm here:\nhttp://localhost:3000/api/auth/verify-email?token=a.b&callbackURL=%2F\n\nBye.")).toEqual([
      { kind: "text", value: "Confirm here:\n" },
      { kind: "link", href: "http://localhost:3000/api/auth/verify-email?token=a.b&callbackURL=%2F", value: "http://localhost:3000/api/auth/verify-email?token=a.b&callbackURL=%2F" },
      { kind: "text", value: "\n\nBye." },
    ]);
  });

  it("keeps sentence punctuation out of the link and never links other schemes", () => {
    expect(linkify("See https://shop.test/a. Or javascript:alert(1) and <b>x</b>")).toEqual([
      { kind: "text", value: "See " },
      { kind: "link", href: "https://shop.test/a", value: "https://shop.test/a" },
      { kind: "text", value: ". Or javascript:alert(1) and <b>x</b>" },
    ]);
  });
});
