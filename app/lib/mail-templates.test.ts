import { describe, expect, it } from "vitest";
import { fillPlaceholders, MAIL_DEFINITIONS, resolveMailTemplates } from "./mail-templates";
import { MailTemplateInput } from "./mail-templates-input";

describe("mail templates (Site Settings → Emails)", () => {
  it("default to today's subjects, and take the owner's text field by field", () => {
    const t = resolveMailTemplates({ "order-shipped": { subject: "  On its way: {orderNumber} ", intro: 42 }, "not-a-mail": { subject: "x" } });
    expect(t["order-shipped"]).toEqual({ subject: "On its way: {orderNumber}", intro: MAIL_DEFINITIONS["order-shipped"].intro });
    expect(t["password-reset"].subject).toBe("Reset your {shopName} password");
    expect(resolveMailTemplates("garbage")["order-confirmation"].subject).toBe("Order {orderNumber} confirmed");
  });

  it("fill the known placeholders and leave any other braces as typed", () => {
    expect(fillPlaceholders("{name}, {orderNumber} from {shopName} {total} {name}", { name: "Ada", orderNumber: "LL-1", shopName: "L&L" })).toBe(
      "Ada, LL-1 from L&L {total} Ada",
    );
  });

  it("accept a one-line subject and an intro within their limits, and refuse the rest with a message", () => {
    expect(MailTemplateInput.parse({ kind: "order-confirmation", subject: " Hi {name} ", intro: "Line 1\nLine 2" })).toEqual({
      kind: "order-confirmation",
      subject: "Hi {name}",
      intro: "Line 1\nLine 2",
    });
    const messages = (input: object) => MailTemplateInput.safeParse(input).error?.issues.map((i) => i.message);
    expect(messages({ kind: "order-confirmation", subject: "a\r\nBcc: x@y", intro: "" })).toContain("Subject must be one line");
    expect(messages({ kind: "order-confirmation", subject: "s".repeat(151), intro: "" })).toEqual(["Subject must be at most 150 characters"]);
    expect(messages({ kind: "order-confirmation", subject: "", intro: "i".repeat(1001) })).toEqual(["Intro must be at most 1000 characters"]);
    expect(messages({ kind: "newsletter", subject: "", intro: "" })).toEqual(["Choose one of the shop's mails"]);
  });
});
