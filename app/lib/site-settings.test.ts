import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "./site-settings-defaults";
import { isValidHsl, resolveSiteSettings } from "./site-settings-rules";

describe("site settings", () => {
  it("falls back to the defaults when nothing is stored", () => {
    expect(resolveSiteSettings([])).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS.theme_colors).toEqual({ primary: "hsl(220, 70%, 50%)", secondary: "hsl(220, 20%, 90%)" });
  });

  it("falls back field by field for missing or malformed values", () => {
    const s = resolveSiteSettings([
      { settingKey: "hero_section", settingValue: { title: "New title", subtitle: 42 } },
      { settingKey: "theme_colors", settingValue: { primary: "red; background: url(x)", secondary: "hsl(10, 50%, 40%)" } },
      { settingKey: "footer_content", settingValue: "not an object" },
    ]);
    expect(s.hero_section.title).toBe("New title");
    expect(s.hero_section.subtitle).toBe(DEFAULT_SETTINGS.hero_section.subtitle);
    expect(s.theme_colors.primary).toBe(DEFAULT_SETTINGS.theme_colors.primary);
    expect(s.theme_colors.secondary).toBe("hsl(10, 50%, 40%)");
    expect(s.footer_content).toEqual(DEFAULT_SETTINGS.footer_content);
  });

  it("lets a blank empty only images and the hero's subtitle and description; a blank logo text, title or button falls back", () => {
    const s = resolveSiteSettings([
      { settingKey: "site_branding", settingValue: { logo_text: "  ", logo_url: "" } },
      { settingKey: "hero_section", settingValue: { title: "", subtitle: "", description: " ", cta_primary: "", cta_secondary: "Go", background_image: "" } },
      { settingKey: "featured_section", settingValue: { title: "" } },
    ]);
    expect(s.site_branding).toEqual({ logo_text: DEFAULT_SETTINGS.site_branding.logo_text, logo_url: "" });
    expect(s.hero_section).toEqual({
      ...DEFAULT_SETTINGS.hero_section,
      subtitle: "",
      description: "",
      cta_secondary: "Go",
      background_image: "",
    });
    expect(s.featured_section.title).toBe(DEFAULT_SETTINGS.featured_section.title);
  });

  it("accepts only real hsl() colours", () => {
    expect(isValidHsl("hsl(220, 70%, 50%)")).toBe(true);
    expect(isValidHsl("hsl(220 70% 50%)")).toBe(true);
    expect(isValidHsl("hsl(420, 70%, 50%)")).toBe(false);
    expect(isValidHsl("hsl(220, 70%, 50%); color: red")).toBe(false);
    expect(isValidHsl("#fff")).toBe(false);
  });
});
