import { describe, expect, it } from "vitest";
import { mailOutbox } from "~/server/platform/db/schema";
import { asAdmin } from "../factories/users";
import { useShop } from "./harness";
import { hydrated, open, slow, toast } from "./page-helpers";

const shop = useShop();

describe("Site Settings → Emails and the Outbox", () => {
  it("edit an intro, see it in the preview, save it, send a test, and read the test in /admin/outbox as HTML", async () => {
    const page = slow(await asAdmin(shop));
    await open(page, "/admin/site-settings");
    await page.getByRole("tab", { name: "Emails" }).click();
    const panel = page.getByRole("tabpanel", { name: "Emails" });
    await hydrated(page, panel);
    await panel.getByLabel("Mail", { exact: true }).selectOption({ label: "Order shipped" });
    await panel.getByLabel("Intro").fill("Packed with care by <b>Sam</b> for {name}.");

    // The preview follows the typing, rendered by the shop in a sandboxed frame; the markup shows as text.
    const preview = page.frameLocator('iframe[title="Preview of the order shipped mail"]');
    // (The intro is also the mail's hidden preview line: the visible paragraph is the one that counts.)
    await preview.locator("p").filter({ hasText: "Packed with care by <b>Sam</b> for Alex." }).waitFor();
    await preview.getByRole("link", { name: "Track it on UPS" }).waitFor();
    expect(await preview.locator("b").count()).toBe(0);
    await panel.getByRole("button", { name: "Phone" }).click();
    expect(await page.locator('iframe[title="Preview of the order shipped mail"]').evaluate((f) => f.getBoundingClientRect().width)).toBe(375);

    await panel.getByRole("button", { name: "Save email" }).click();
    await toast(page, "Email saved").waitFor();
    await panel.getByRole("button", { name: "Send me a test" }).click();
    await toast(page, `Test sent to ${page.user.email}`).waitFor();

    // The saved intro is there after a reload.
    await open(page, "/admin/site-settings");
    await page.getByRole("tab", { name: "Emails" }).click();
    await page.getByRole("tabpanel", { name: "Emails" }).getByLabel("Mail", { exact: true }).selectOption({ label: "Order shipped" });
    expect(await page.getByRole("tabpanel", { name: "Emails" }).getByLabel("Intro").inputValue()).toBe("Packed with care by <b>Sam</b> for {name}.");

    await page.goto("/admin/outbox");
    const row = page.getByRole("row").filter({ hasText: page.user.email });
    await row.getByText("Kept in the outbox").waitFor();
    await row.getByRole("link", { name: "Order LL-SAMPLE-0001 has shipped" }).click();
    await page.getByRole("heading", { name: "Order LL-SAMPLE-0001 has shipped" }).waitFor();
    const html = page.frameLocator('iframe[title="The mail \\"Order LL-SAMPLE-0001 has shipped\\" as HTML"]');
    await html.locator("p").filter({ hasText: "Packed with care by <b>Sam</b> for Alex." }).waitFor();
    await html.getByRole("link", { name: "Track it on UPS" }).waitFor();
    // The text part is on the page too.
    await page.getByText("Tracking number: 1Z999AA10123456784").first().waitFor();
  });

  it("the sidebar counts failed mails on Outbox, and the Outbox filters them", async () => {
    await shop.db.insert(mailOutbox).values({
      to: "bounced@example.test",
      from: "shop",
      subject: "Order LL-X confirmed",
      text: "x",
      transport: "smtp",
      status: "given_up",
      attempts: 5,
      error: "550 5.1.1 mailbox unavailable",
    });
    const page = slow(await asAdmin(shop));
    await open(page, "/admin");
    await page.getByRole("link", { name: /^Outbox \(1 failed mail\)$/ }).click();
    await page.getByRole("heading", { name: "Outbox" }).waitFor();
    await page.getByRole("link", { name: "Failed (1)" }).click();
    await page.waitForURL((u) => u.searchParams.get("state") === "failed");
    const row = page.getByRole("row").filter({ hasText: "bounced@example.test" });
    await row.getByText("Given up").waitFor();
    await row.getByText("SMTP answer: 550 5.1.1 mailbox unavailable").waitFor();
    await row.getByRole("button", { name: "Resend the mail to bounced@example.test" }).waitFor();
    expect(await page.getByRole("row").count()).toBe(2); // the header and the one failed mail
  });
});
