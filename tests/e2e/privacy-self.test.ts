import fs from "node:fs";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { mailOutbox, reviews } from "~/server/platform/db/schema";
import { openCheckout, orderBySession } from "../factories/orders";
import { makeProduct } from "../factories/products";
import { asCustomer } from "../factories/users";
import { confirmPayment } from "~/server/commerce/settlement/confirm.server";
import { testPaymentSessions } from "~/server/platform/db/schema";
import { useShop } from "./harness";
import { formsHydrated, open, unique } from "./page-helpers";

/**
 * The shopper's side of their data in the browser (docs/rules/personal-data.md): a signed-in
 * shopper downloads their ZIP and deletes the account with their password, keeping their review
 * signed 'A customer'; a guest asks from the footer's 'Your data' and downloads from the mailed link.
 */

const shop = useShop();

/** data.json of a downloaded ZIP. */
function dataJson(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error("no zip"));
      zip.on("entry", (entry: yauzl.Entry) => {
        if (entry.fileName !== "data.json") return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error("no stream"));
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        });
      });
      zip.on("end", () => reject(new Error("no data.json in the ZIP")));
      zip.readEntry();
    });
  });
}

async function paidOrderFor(product: Awaited<ReturnType<typeof makeProduct>>, opts: { userId?: string; email?: string }) {
  const checkout = await openCheckout(shop.db, [[product, 1]], { userId: opts.userId ?? null, form: opts.email ? { email: opts.email } : {} });
  await shop.db.update(testPaymentSessions).set({ status: "paid", paymentReference: `test_pi_${checkout.orderId.slice(0, 8)}` }).where(eq(testPaymentSessions.id, checkout.sessionId));
  expect((await confirmPayment(shop.db, checkout.sessionId)).state).toBe("paid");
  return orderBySession(shop.db, checkout.sessionId);
}

describe("a shopper's own data", () => {
  it("downloads the ZIP with their order, then deletes the account keeping reviews: signed out, cannot sign in, the review reads 'A customer'", async () => {
    const shopper = await asCustomer(shop, { firstName: "Rowan", lastName: "Privacy" });
    const product = await makeProduct(shop.db, { name: unique("Deleted Shopper Throw") });
    const order = await paidOrderFor(product, { userId: shopper.user.id });
    const title = unique("Kept review");
    await shop.db.insert(reviews).values({ productId: product.id, userId: shopper.user.id, orderId: order.id, authorName: "Rowan P.", rating: 5, title, body: "Warm.", status: "approved" });

    await open(shopper, "/profile");
    const yourData = shopper.getByRole("heading", { name: "Your data" });
    await yourData.waitFor();
    const [download] = await Promise.all([shopper.waitForEvent("download"), shopper.getByRole("link", { name: "Download my data" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const json = await dataJson((await download.path())!);
    expect(json).toContain(order.orderNumber);
    expect(json).toContain(shopper.user.email);

    await formsHydrated(shopper);
    const form = shopper.getByRole("form", { name: "Delete my account" });
    await form.getByText("Your orders stay with us as the shop's records for the period the law requires").waitFor();
    await form.getByLabel("Keep them, signed 'A customer'").check();
    await form.getByLabel("Your password").fill(shopper.user.password);
    await form.getByRole("button", { name: "Delete my account" }).click();
    await shopper.getByRole("heading", { name: "Your account has been deleted" }).waitFor();
    expect(new URL(shopper.url()).pathname).toBe("/account-deleted");
    // Signed out: the account page sends to sign in.
    await open(shopper, "/profile");
    await shopper.waitForURL(/\/auth\?redirectTo=/);

    // The password no longer signs anyone in.
    await formsHydrated(shopper);
    const signIn = shopper.getByRole("tabpanel", { name: "Sign In" });
    await signIn.getByLabel("Email").fill(shopper.user.email);
    await signIn.getByLabel("Password").fill(shopper.user.password);
    await signIn.getByRole("button", { name: "Sign In" }).click();
    await expect(signIn.getByRole("alert").innerText()).resolves.toContain("Invalid email or password");

    const visitor = await shop.newPage();
    await open(visitor, `/product/${product.id}`);
    const section = visitor.getByRole("region", { name: "Customer Reviews" });
    await section.getByRole("heading", { name: title }).waitFor();
    await section.getByText("A customer").first().waitFor();
    expect(await section.getByText("Rowan P.").count()).toBe(0);
  });

  it("a guest asks from the footer's 'Your data'; the mailed link downloads their data", async () => {
    const email = `${unique("guest").replace(" ", "-")}@example.test`;
    const product = await makeProduct(shop.db, { name: unique("Guest Data Pillow") });
    const order = await paidOrderFor(product, { email });

    const guest = await shop.newPage();
    await open(guest, "/");
    await guest.getByRole("contentinfo").getByRole("link", { name: "Your data" }).click();
    await guest.getByRole("heading", { name: "Your data", level: 1 }).waitFor();
    await formsHydrated(guest);
    const form = guest.getByRole("form", { name: "Ask about your data" });
    await form.getByLabel("Email").fill(email);
    await form.getByRole("button", { name: "Send me my data" }).click();
    await form.getByRole("status").getByText("If we hold data about this email address, we have sent it a link to confirm.").waitFor();

    const [mail] = await shop.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, email), eq(mailOutbox.kind, "data-export")));
    const link = /https?:\/\/\S+\/profile\/data-request\?token=[A-Za-z0-9_-]{43}/.exec(mail!.text)![0];
    await guest.goto(new URL(link).pathname + new URL(link).search);
    await guest.getByRole("heading", { name: "Your data" }).waitFor();
    const [download] = await Promise.all([guest.waitForEvent("download"), guest.getByRole("button", { name: "Download my data" }).click()]);
    const json = await dataJson((await download.path())!);
    expect(json).toContain(order.orderNumber);
    expect(fs.existsSync((await download.path())!)).toBe(true);
  });
});
