import { and, desc, eq } from "drizzle-orm";
import { describe, it } from "vitest";
import { mailOutbox } from "~/server/platform/db/schema";
import { makeUser } from "../factories/users";
import { launchBrowser, useShop } from "./harness";

/**
 * The owner can always reset the password, with or without JavaScript. The reset page keeps its
 * token out of Referer headers; it once did so with `no-referrer`, which makes a browser send
 * "Origin: null" on the plain form post, and the cross-site check refused it (403).
 */
describe("password reset without JavaScript", () => {
  const shop = useShop();

  it("asks for the link, follows it and changes the password with plain forms", async () => {
    const u = await makeUser(shop.db);
    const browser = await launchBrowser();
    try {
      const page = await (await browser.newContext({ baseURL: shop.baseUrl, javaScriptEnabled: false })).newPage();
      page.setDefaultTimeout(20_000);
      await page.goto("/auth/forgot-password");
      await page.getByRole("main").getByLabel("Email", { exact: true }).fill(u.email);
      await page.getByRole("button", { name: "Send reset link" }).click();
      let text = "";
      for (let i = 0; i < 50 && !text; i++) {
        const [mail] = await shop.db
          .select()
          .from(mailOutbox)
          .where(and(eq(mailOutbox.to, u.email), eq(mailOutbox.kind, "password-reset")))
          .orderBy(desc(mailOutbox.createdAt));
        text = mail?.text ?? "";
        if (!text) await new Promise((r) => setTimeout(r, 100));
      }
      await page.goto(/https?:\/\/\S+/.exec(text)![0]);
      await page.waitForURL((url) => url.pathname === "/auth/reset-password" && url.searchParams.has("token"));
      await page.getByLabel("New password", { exact: true }).fill("brand-new-linen-5");
      await page.getByLabel("Confirm new password").fill("brand-new-linen-5");
      await page.getByRole("button", { name: "Change password" }).click();
      await page.getByText("Your password has been changed").waitFor();
    } finally {
      await browser.close();
    }
  });
});
