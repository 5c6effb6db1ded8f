import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SETTING_KEYS, type SiteSettings } from "~/lib/site-settings";
import { DEFAULT_SETTINGS } from "~/lib/site-settings-defaults";
import { fieldName } from "~/lib/site-settings-form";
import { loader as rootLoader } from "~/root";
import { action, loader } from "~/routes/admin/site-settings";
import { siteSettings } from "~/server/platform/db/schema";
import { getSiteSettings } from "~/server/platform/settings/settings.server";
import { DiskStorage, setStorage } from "~/server/platform/storage/storage.server";
import { makePng, SVG_IMAGE } from "../factories/images";
import { makeAdmin, makeCustomer, requestAs, type TestUser } from "../factories/users";
import { useTestDatabase } from "../setup/database";
import { args } from "./route-args";

const t = useTestDatabase();
let admin: TestUser;
let uploads: string;

beforeAll(async () => {
  admin = await makeAdmin(t.db);
});
beforeEach(async () => {
  uploads = await fs.mkdtemp(path.join(os.tmpdir(), "settings-test-"));
  setStorage(new DiskStorage(uploads));
  await t.db.delete(siteSettings);
});
afterAll(() => setStorage(undefined));

function settingsForm(s: SiteSettings, overrides: Record<string, string> = {}) {
  const form = new FormData();
  form.set("intent", "save");
  for (const key of SETTING_KEYS) {
    for (const [field, value] of Object.entries(s[key])) form.set(fieldName(key, field), value);
  }
  for (const [k, v] of Object.entries(overrides)) form.set(k, v);
  return form;
}

const changed: SiteSettings = {
  site_branding: { logo_text: "Dream Loft", logo_url: "" },
  theme_colors: { primary: "hsl(12, 80%, 45%)", secondary: "hsl(40 30% 92%)" },
  hero_section: {
    title: "Rest Deeper",
    subtitle: "Linen for every season",
    description: "Stone-washed linen sheets.",
    cta_primary: "Browse Sheets",
    cta_secondary: "Read the Guide",
    background_image: "",
  },
  featured_section: { title: "Staff Picks", description: "What we sleep on." },
  footer_content: {
    brand_description: "Bedding made slowly.",
    newsletter_title: "Letters from the Loft",
    newsletter_description: "One email a month.",
    copyright: "© 2031 Dream Loft",
  },
};

async function post(form: FormData, as: { id: string } | null = admin) {
  const request = await requestAs(t.db, as, "/admin/site-settings", { method: "POST", body: form });
  try {
    const result = (await action(args(request))) as any;
    return { status: result.init?.status ?? 200, body: result.data };
  } catch (thrown: any) {
    if (thrown instanceof Response) return { status: thrown.status, body: thrown.headers.get("location") };
    return { status: thrown.init?.status, body: thrown.data };
  }
}

async function storedRows() {
  return (await t.db.select().from(siteSettings)).length;
}

describe("admin site settings: access", () => {
  it("sends anonymous visitors to sign in and refuses customers, for the page and the action", async () => {
    const anon = await requestAs(t.db, null, "/admin/site-settings");
    await expect(loader(args(anon))).rejects.toMatchObject({ status: 302 });
    const customer = await makeCustomer(t.db);
    const req = await requestAs(t.db, customer, "/admin/site-settings");
    await expect(loader(args(req))).rejects.toMatchObject({ init: { status: 403 } });
    expect((await post(settingsForm(changed), customer)).status).toBe(403);
    expect((await post(settingsForm(changed), null)).status).toBe(302);
    expect(await storedRows()).toBe(0);
  });
});

describe("admin site settings: load and save", () => {
  it("loads the defaults when nothing is saved, and reports a load failure as 'Failed to load site settings'", async () => {
    const request = await requestAs(t.db, admin, "/admin/site-settings");
    const data = await loader(args(request));
    expect(await data.settings).toEqual({ ok: true, settings: DEFAULT_SETTINGS });

    await t.db.execute(sql`alter table site_settings rename to site_settings_gone`);
    try {
      const broken = await loader(args(await requestAs(t.db, admin, "/admin/site-settings")));
      expect(await broken.settings).toEqual({ ok: false, error: "Failed to load site settings" });
    } finally {
      await t.db.execute(sql`alter table site_settings_gone rename to site_settings`);
    }
  });

  it("saves all five keys and the storefront's root loader shows them on the next request", async () => {
    const res = await post(settingsForm(changed));
    expect(res).toEqual({ status: 200, body: { ok: true, message: "Site settings saved successfully" } });
    expect(await storedRows()).toBe(5);
    expect(await getSiteSettings(t.db)).toEqual(changed);
    const root = await rootLoader(args(new Request("http://localhost:3000/")));
    expect(root.settings).toEqual(changed);

    // Saving again updates the same rows (upsert by setting_key), never duplicates.
    await post(settingsForm(changed, { [fieldName("hero_section", "title")]: "  Rest Even Deeper  " }));
    expect(await storedRows()).toBe(5);
    expect((await getSiteSettings(t.db)).hero_section.title).toBe("Rest Even Deeper");
  });

  it("refuses a theme colour that is not valid HSL, naming the field, and changes nothing", async () => {
    await post(settingsForm(changed));
    for (const bad of ["blue", "#ff0000", "hsl(400, 50%, 50%)", "hsl(220, 70, 50)", "rgb(1,2,3)", ""]) {
      const res = await post(settingsForm(changed, { [fieldName("theme_colors", "primary")]: bad }));
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("Failed to save site settings");
      expect(res.body.fieldErrors["theme_colors.primary"]).toBe(
        "Primary Color (HSL) must be a colour like hsl(220, 70%, 50%)",
      );
      expect(res.body.reason).toContain("Theme: Primary Color (HSL)");
    }
    expect(await getSiteSettings(t.db)).toEqual(changed);
  });

  it("makes CSS injection through any setting impossible", async () => {
    const attacks = {
      [fieldName("theme_colors", "primary")]: "hsl(220, 70%, 50%); } body { display: none } :root {",
      [fieldName("theme_colors", "secondary")]: "hsl(220 20% 90%) url(https://evil.example/x)",
      [fieldName("hero_section", "background_image")]: "/media/hero-1.png); background: url(https://evil.example/t",
      [fieldName("site_branding", "logo_url")]: 'javascript:alert(1)"',
    };
    for (const [name, value] of Object.entries(attacks)) {
      const res = await post(settingsForm(changed, { [name]: value }));
      expect(res.status, name).toBe(400);
      expect(res.body.fieldErrors[name], name).toBeTruthy();
    }
    expect(await storedRows()).toBe(0);

    // Even a value written straight into the table never reaches the page: that field falls back.
    await t.db.insert(siteSettings).values([
      {
        settingKey: "theme_colors",
        settingValue: { primary: "red; } * { display: none", secondary: "hsl(1, 2%, 3%)" },
      },
      {
        settingKey: "hero_section",
        settingValue: { ...changed.hero_section, background_image: "//evil.example/x.png" },
      },
    ]);
    const root = await rootLoader(args(new Request("http://localhost:3000/")));
    expect(root.settings.theme_colors).toEqual({
      primary: DEFAULT_SETTINGS.theme_colors.primary,
      secondary: "hsl(1, 2%, 3%)",
    });
    expect(root.settings.hero_section.background_image).toBe("");
  });

  it("leaves the old settings intact when a save fails halfway", async () => {
    await post(settingsForm(changed));
    // The fourth of five upserts fails inside the transaction, after three have been written.
    await t.db.execute(sql`
      create function fail_featured() returns trigger language plpgsql as $$
      begin
        if new.setting_key = 'featured_section' then raise exception 'disk full'; end if;
        return new;
      end $$;
      create trigger fail_featured before insert or update on site_settings
        for each row execute function fail_featured();`);
    try {
      const attempt = settingsForm(
        { ...changed, site_branding: { logo_text: "Half Saved", logo_url: "" } },
        { [fieldName("hero_section", "title")]: "Half Saved Hero" },
      );
      const res = await post(attempt);
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ ok: false, error: "Failed to save site settings" });
      expect(await getSiteSettings(t.db)).toEqual(changed);
    } finally {
      await t.db.execute(sql`drop trigger fail_featured on site_settings; drop function fail_featured();`);
    }
  });
});

describe("admin site settings: logo and hero uploads", () => {
  function uploadForm(intent: string, bytes: Buffer, name = "image.png") {
    const form = new FormData();
    form.set("intent", intent);
    form.set("file", new File([new Uint8Array(bytes)], name, { type: "image/png" }));
    return form;
  }

  it("stores a logo as logo-<timestamp>.png and a hero as hero-<timestamp>.<ext>", async () => {
    const logo = await post(uploadForm("upload-logo", await makePng()));
    expect(logo.status).toBe(200);
    expect(logo.body.url).toMatch(/^\/media\/logo-\d{13}\.png$/);
    const hero = await post(uploadForm("upload-hero", await makePng(800, 400)));
    expect(hero.body.url).toMatch(/^\/media\/hero-\d{13}\.png$/);
    expect((await fs.readdir(uploads)).sort()).toHaveLength(2);
    // Uploading does not publish: only Save Changes does.
    expect(await storedRows()).toBe(0);
  });

  it("answers 'Failed to upload image' with the reason and stores nothing for a bad file", async () => {
    const res = await post(uploadForm("upload-logo", SVG_IMAGE, "logo.png"));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      ok: false,
      error: "Failed to upload image",
      reason: "SVG images are not allowed. Upload a PNG, JPEG, GIF, WebP or AVIF image.",
    });
    const none = new FormData();
    none.set("intent", "upload-hero");
    expect((await post(none)).body.reason).toBe("Choose an image file to upload.");
    expect(await fs.readdir(uploads)).toEqual([]);
  });

  it("deletes the old logo file when a save replaces or removes it", async () => {
    const first = (await post(uploadForm("upload-logo", await makePng()))).body.url as string;
    await post(settingsForm({ ...changed, site_branding: { logo_text: "L", logo_url: first } }));
    const second = (await post(uploadForm("upload-logo", await makePng(10, 10)))).body.url as string;
    await post(settingsForm({ ...changed, site_branding: { logo_text: "L", logo_url: second } }));
    expect(await fs.readdir(uploads)).toEqual([second.replace("/media/", "")]);
    await post(settingsForm({ ...changed, site_branding: { logo_text: "L", logo_url: "" } }));
    expect(await fs.readdir(uploads)).toEqual([]);
    expect((await getSiteSettings(t.db)).site_branding.logo_url).toBe("");
  });

  it("deletes uploads that were never saved once they are a day old, keeping the ones in use and recent ones", async () => {
    const day = 24 * 60 * 60 * 1000;
    const name = (kind: string, age: number) => `${kind}-${Date.now() - age}.png`;
    const files = {
      savedLogo: name("logo", 30 * day),
      savedHero: name("hero", 3 * day),
      abandonedLogo: name("logo", 2 * day),
      abandonedHero: name("hero", day + 60_000),
      otherAdminsUpload: name("logo", 60 * 60 * 1000),
      notOurs: "logo-of-a-partner.png",
    };
    for (const file of Object.values(files)) await fs.writeFile(path.join(uploads, file), await makePng(4, 4));

    const saved = {
      ...changed,
      site_branding: { logo_text: "L", logo_url: `/media/${files.savedLogo}` },
      hero_section: { ...changed.hero_section, background_image: `/media/${files.savedHero}` },
    };
    expect((await post(settingsForm(saved))).status).toBe(200);
    expect((await fs.readdir(uploads)).sort()).toEqual(
      [files.savedLogo, files.savedHero, files.otherAdminsUpload, files.notOurs].sort(),
    );
  });
});
