import { describe, expect, it } from "vitest";
import { VISITOR_STORAGE } from "~/lib/visitor-storage";
import { action as adminAction, loader as adminLoader } from "~/routes/admin/pages";
import { loader as pageLoader } from "~/routes/store/shop-page";
import { makeAdmin, makeCustomer, requestAs } from "../factories/users";
import { useTestDatabase } from "../setup/database";

/** The owner-edited pages, /privacy and /accessibility (docs/rules/visitor-storage.md). */
const t = useTestDatabase();

type PageData = { page: { slug: string; content: string; fromTemplate: boolean } };
const read = async (path: string) => {
  const res = (await pageLoader({ request: new Request(`http://localhost:3000${path}`), params: {}, context: {} } as never)) as unknown as {
    data: PageData;
  };
  return res.data.page;
};
const post = async (as: { id: string }, page: string, body: unknown) =>
  adminAction({
    request: await requestAs(t.db, as, `/admin/pages?page=${page}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    params: {},
    context: {},
  } as never);

describe("the privacy and accessibility pages", () => {
  it("show their templates until the owner saves: every documented storage key on /privacy, WCAG 2.2 AA and a contact on /accessibility", async () => {
    const privacy = await read("/privacy");
    expect(privacy.fromTemplate).toBe(true);
    for (const key of VISITOR_STORAGE) expect(privacy.content).toContain(key.name);
    const accessibility = await read("/accessibility");
    expect(accessibility.content).toContain("WCAG) 2.2 at level AA");
    expect(accessibility.content).toContain('href="/contact"');
    expect(accessibility.content).toMatch(/href="mailto:[^"]+@/);
  });

  it("saves the owner's text sanitized as a blog post is, and 'Use the template' brings the template back", async () => {
    const admin = await makeAdmin(t.db);
    const saved = await post(admin, "accessibility", {
      intent: "save",
      content: '<h2>Our promise</h2><p onclick="steal()">We test with screen readers.</p><script>alert(1)</script><a href="javascript:alert(1)">x</a>',
    });
    expect(saved).toMatchObject({ ok: true, message: "Page saved." });
    const page = await read("/accessibility");
    expect(page.fromTemplate).toBe(false);
    expect(page.content).toBe("<h2>Our promise</h2><p>We test with screen readers.</p><a>x</a>");
    // The other page is untouched.
    expect((await read("/privacy")).fromTemplate).toBe(true);

    expect(await post(admin, "accessibility", { intent: "reset" })).toMatchObject({ ok: true });
    expect((await read("/accessibility")).content).toContain("WCAG) 2.2 at level AA");
  });

  it("refuses an empty page and anyone but an admin", async () => {
    const admin = await makeAdmin(t.db);
    const refused = (await post(admin, "privacy", { intent: "save", content: "<p><br></p><script>x</script>" })) as unknown as {
      data: { ok: boolean; error: string };
      init: { status: number };
    };
    expect(refused.data).toEqual({ ok: false, error: "The page cannot be empty." });
    expect(refused.init.status).toBe(400);

    const customer = await makeCustomer(t.db);
    await expect(post(customer, "privacy", { intent: "save", content: "<p>Mine now</p>" })).rejects.toMatchObject({ init: { status: 403 } });
    await expect(
      adminLoader({ request: await requestAs(t.db, customer, "/admin/pages"), params: {}, context: {} } as never),
    ).rejects.toMatchObject({ init: { status: 403 } });
    expect((await read("/privacy")).fromTemplate).toBe(true);
  });
});
