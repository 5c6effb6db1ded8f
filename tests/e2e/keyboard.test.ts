import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useShop } from "./harness";
import { open } from "./page-helpers";

/**
 * Keyboard only (docs/rules/accessibility.md): no mouse, no element.click(). At every stop of the
 * Tab key the focused element shows a focus indicator (an outline, or a box-shadow ring with a
 * spread) and no sticky or fixed bar at the top of the window (the header) covers it.
 */

const shop = useShop({ pageTimeout: 30_000 });

/** What is wrong with the focus now, or null: where it is, whether it shows, whether the header hides it. */
async function focusProblem(page: Page): Promise<string | null> {
  return page.evaluate(async () => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    // The ring fades in (a transition on box-shadow): read the style it ends with.
    await Promise.all(el.getAnimations().map((a) => a.finished.catch(() => {})));
    const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40)}"`;
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
    // A ring: a box-shadow whose spread (the fourth length) is above zero and whose colour is not transparent.
    const ring = style.boxShadow
      .split(/,(?![^(]*\))/)
      .some((s) => {
        const lengths = s.replace(/rgba?\([^)]*\)|oklch\([^)]*\)|oklab\([^)]*\)|color\([^)]*\)/g, "").match(/-?[\d.]+px/g) ?? [];
        const transparent = /rgba\([^)]*,\s*0\)|transparent/.test(s) || /\/\s*0\)/.test(s);
        return lengths.length >= 4 && parseFloat(lengths[3]!) > 0 && !transparent;
      });
    if (!outline && !ring) return `${name} shows no focus indicator (outline ${style.outlineStyle} ${style.outlineWidth}, box-shadow ${style.boxShadow})`;
    const box = el.getBoundingClientRect();
    for (const bar of document.querySelectorAll<HTMLElement>("body *")) {
      const pos = getComputedStyle(bar).position;
      if (pos !== "sticky" && pos !== "fixed") continue;
      if (bar.contains(el) || el.contains(bar)) continue;
      const r = bar.getBoundingClientRect();
      if (r.height === 0 || r.top > 1) continue;
      const overlap = box.top < r.bottom && box.bottom > r.top && box.left < r.right && box.right > r.left;
      // Overlapping, and the bar is drawn over it (a skip link drawn above the header is not hidden).
      const points = [
        [box.left + box.width / 2, box.top + box.height / 2],
        [box.left + 2, box.top + 2],
        [box.right - 2, box.top + 2],
      ];
      const covered = points.some(([x, y]) => {
        const top = document.elementFromPoint(x!, y!);
        return top !== null && bar.contains(top) && !el.contains(top);
      });
      if (overlap && covered) return `${name} is under the bar at the top (${bar.tagName.toLowerCase()}.${bar.className.split(" ")[0]})`;
    }
    return null;
  });
}

/** Presses Tab (or Shift+Tab) until `target` has the focus, checking every stop; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, { max = 60, back = false } = {}) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    const problem = await focusProblem(page);
    expect(problem, problem ?? "").toBeNull();
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`${target} did not get the focus within ${max} presses of ${back ? "Shift+Tab" : "Tab"}`);
}

describe("keyboard only", () => {
  it("every Tab stop on the home page, down to the footer's Subscribe button, shows the focus outside the header", async () => {
    const page = await shop.newPage();
    await page.setViewportSize({ width: 1280, height: 700 });
    await open(page, "/");
    await tabTo(page, page.getByRole("button", { name: "Subscribe" }), { max: 80 });
  }, 120_000);
});
