import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { formatPostDate } from "~/lib/blog";
import { makePng } from "../factories/images";
import { asAdmin } from "../factories/users";
import { useShop } from "./harness";
import { seeToast, slow } from "./page-helpers";

/**
 * The whole life of a post through the real editor (Quill 2 in Chromium): every toolbar tool,
 * SEO, switches, featured image, tags, preview, save, the storefront, edit, unpublish, delete.
 */
describe("blog editor, end to end", () => {
  const shop = useShop();

  /** Puts the caret at the end of the line holding `text` and selects the whole line. */
  async function selectLine(page: Page, editor: Locator, text: string) {
    await editor.getByText(text, { exact: true }).click();
    await page.keyboard.press("End");
    await page.keyboard.press("Shift+Home");
  }

  async function tool(page: Page, name: string) {
    await page.getByRole("toolbar", { name: "Formatting" }).getByRole("button", { name, exact: true }).click();
  }

  async function pick(page: Page, picker: string, item: string) {
    const toolbar = page.getByRole("toolbar", { name: "Formatting" });
    await toolbar.getByRole("button", { name: picker, exact: true }).click();
    await toolbar.getByRole("button", { name: item, exact: true }).click();
  }

  it("creates a post with every editor feature, publishes it, shows it on /blog, edits, unpublishes and deletes it", async () => {
    const page = slow(await asAdmin(shop));
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    await page.goto("/admin/blog");
    await page.getByRole("heading", { name: "Blog Management" }).waitFor();
    await page.getByText("No posts created yet").waitFor();
    await page.getByText("Create your first blog post to get started").waitFor();
    await page.getByRole("link", { name: "Create First Post" }).waitFor();
    await page.getByRole("link", { name: "New Post" }).click();
    await page.getByRole("heading", { name: "Create New Post" }).waitFor();

    // A new post starts unpublished and not featured.
    expect(await page.getByRole("switch", { name: "Published" }).getAttribute("aria-checked")).toBe("false");
    expect(await page.getByRole("switch", { name: "Featured" }).getAttribute("aria-checked")).toBe("false");

    const editor = page.locator(".ql-editor");
    await editor.waitFor();
    expect(await page.locator(".ql-container").evaluate((el) => el.getBoundingClientRect().height)).toBe(400);

    await page.getByRole("button", { name: "Save Post" }).click();
    await seeToast(page, "Title and content are required");

    // The slug follows the title while it is empty.
    await page.getByLabel("Title *").fill("Sleep Better: A Guide, Part 1!");
    expect(await page.getByLabel("URL Slug *").inputValue()).toBe("sleep-better-a-guide-part-1");
    await page.getByLabel("Excerpt").fill("Everything we know about a calmer night.");

    // Type every line as plain text first, then format each one from the toolbar.
    const lines = [
      "Heading line",
      "Bold words",
      "Italic words",
      "Underlined words",
      "Struck words",
      "Quoted words",
      "const code = 1;",
      "First numbered",
      "First bullet",
      "Subscript words",
      "Superscript words",
      "Indented words",
      "Right to left words",
      "Red words",
      "Highlighted words",
      "Centered words",
      "Linked words",
      "Cleaned words",
      "Last line",
    ];
    await editor.click();
    await page.keyboard.type(lines.join("\n"));

    await selectLine(page, editor, "Heading line");
    await pick(page, "Heading", "Heading 2");
    for (const [text, name] of [
      ["Bold words", "Bold"],
      ["Italic words", "Italic"],
      ["Underlined words", "Underline"],
      ["Struck words", "Strikethrough"],
      ["Quoted words", "Quote"],
      ["const code = 1;", "Code block"],
      ["First numbered", "Numbered list"],
      ["First bullet", "Bulleted list"],
      ["Subscript words", "Subscript"],
      ["Superscript words", "Superscript"],
      ["Indented words", "Increase indent"],
      ["Right to left words", "Right to left"],
    ] as const) {
      await selectLine(page, editor, text);
      await tool(page, name);
    }
    await selectLine(page, editor, "Red words");
    await pick(page, "Text colour", "Text colour #e60000");
    await selectLine(page, editor, "Highlighted words");
    await pick(page, "Background colour", "Background colour #ffff00");
    await selectLine(page, editor, "Centered words");
    await pick(page, "Alignment", "Align center");
    await selectLine(page, editor, "Linked words");
    await tool(page, "Link");
    await page.getByLabel("Link address").fill("https://example.com/linked");
    await page.getByLabel("Link address").press("Enter");
    await selectLine(page, editor, "Cleaned words");
    await tool(page, "Bold");
    await tool(page, "Clear formatting");

    // An image picked in the editor is uploaded and inserted by URL.
    await editor.getByText("Last line", { exact: true }).click();
    await page.keyboard.press("End");
    const [chooser] = await Promise.all([page.waitForEvent("filechooser"), tool(page, "Image")]);
    expect(await chooser.element().getAttribute("accept")).toBe("image/png, image/gif, image/jpeg, image/bmp, image/x-icon");
    await chooser.setFiles({ name: "inline.png", mimeType: "image/png", buffer: await makePng(120, 80, "#27ae60") });
    await editor.locator('img[src^="/media/blog-images/"]').waitFor();
    expect(await editor.locator("img").first().getAttribute("src")).not.toContain("data:");

    // A pasted YouTube link becomes an embedded player.
    await editor.evaluate((root) => {
      const data = new DataTransfer();
      data.setData("text/plain", "https://www.youtube.com/watch?v=dQw4w9WgXcQ");
      root.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await editor.locator('iframe[src="https://www.youtube.com/embed/dQw4w9WgXcQ"]').waitFor({ state: "attached" });

    // SEO, switches, featured image, tags.
    await page.getByLabel("Meta Title").fill("Sleep better tonight");
    await page.getByText("20/60 characters").waitFor();
    await page.getByLabel("Meta Description").fill("A practical guide to calmer nights.");
    await page.getByText("35/160 characters").waitFor();
    expect(await page.getByLabel("Meta Title").getAttribute("maxlength")).toBe("60");
    expect(await page.getByLabel("Meta Description").getAttribute("maxlength")).toBe("160");
    await page.getByRole("switch", { name: "Published" }).click();
    await page.getByRole("switch", { name: "Featured" }).click();

    const upload = async (name: string, color: string) => {
      const [picker] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "Upload Image" }).click()]);
      await picker.setFiles({ name, mimeType: "image/png", buffer: await makePng(1200, 630, color) });
      await seeToast(page, "Image uploaded successfully");
    };
    await upload("hero-1.png", "#2c3e50");
    await page.getByRole("img", { name: "Featured image preview" }).waitFor();
    await page.getByRole("button", { name: "Remove Image" }).click();
    await page.getByRole("img", { name: "Featured image preview" }).waitFor({ state: "detached" });
    await upload("hero-2.png", "#8e44ad");

    const tagInput = page.getByLabel("New tag");
    await tagInput.fill("sleep");
    await tagInput.press("Enter");
    await tagInput.fill("Sleep");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await tagInput.fill("   ");
    await tagInput.press("Enter");
    for (const tag of ["bedding", "remove-me"]) {
      await tagInput.fill(tag);
      await tagInput.press("Enter");
    }
    await page.getByRole("button", { name: "Remove tag remove-me" }).click();
    const tags = page.getByRole("list", { name: "Tags" }).getByRole("listitem");
    expect(await tags.allInnerTexts()).toEqual(["sleep", "bedding"]);

    // Preview: image, title, excerpt, tags and the rendered content.
    await page.getByRole("button", { name: "Preview" }).click();
    const preview = page.getByRole("article", { name: "Post preview" });
    await preview.getByRole("heading", { name: "Heading line", level: 2 }).waitFor();
    await preview.getByText("Everything we know about a calmer night.").waitFor();
    expect(await preview.getByRole("heading", { level: 2 }).first().innerText()).toBe("Sleep Better: A Guide, Part 1!");
    expect(await preview.locator("img").count()).toBeGreaterThanOrEqual(2);
    expect(await preview.getByRole("listitem").allInnerTexts()).toEqual(expect.arrayContaining(["sleep", "bedding"]));
    await page.getByRole("button", { name: "Edit", exact: true }).click();
    await editor.waitFor();

    await page.getByRole("button", { name: "Save Post" }).click();
    await seeToast(page, "Post created successfully");
    await page.waitForURL((u) => u.pathname === "/admin/blog");
    const card = page.getByRole("listitem").filter({ hasText: "Sleep Better: A Guide, Part 1!" });
    await card.getByText("Published", { exact: true }).waitFor();
    await card.getByText("Featured", { exact: true }).waitFor();
    await card.getByText(formatPostDate(new Date())).waitFor();

    // The storefront list and the post page.
    await page.goto("/blog");
    await page.getByRole("link", { name: /Sleep Better: A Guide, Part 1!/ }).click();
    await page.waitForURL((u) => u.pathname === "/blog/sleep-better-a-guide-part-1");
    await page.getByRole("heading", { level: 1, name: "Sleep Better: A Guide, Part 1!" }).waitFor();
    expect(await page.title()).toContain("Sleep better tonight");
    expect(await page.locator('meta[name="description"]').getAttribute("content")).toBe("A practical guide to calmer nights.");
    const body = page.locator(".post-content");
    const has = async (selector: string, text?: string) =>
      expect(await body.locator(selector, text ? { hasText: text } : {}).count(), selector).toBeGreaterThan(0);
    await has("h2", "Heading line");
    await has("strong", "Bold words");
    await has("em", "Italic words");
    await has("u", "Underlined words");
    await has("s", "Struck words");
    await has("blockquote", "Quoted words");
    await has("pre", "const code = 1;");
    await has("ol > li", "First numbered");
    await has("ul > li", "First bullet");
    await has("sub", "Subscript words");
    await has("sup", "Superscript words");
    await has(".ql-indent-1", "Indented words");
    await has('a[href="https://example.com/linked"]', "Linked words");
    await has('iframe[src="https://www.youtube.com/embed/dQw4w9WgXcQ"]');
    expect(await body.locator("strong", { hasText: "Cleaned words" }).count()).toBe(0);
    const style = (text: string, prop: string) =>
      body.getByText(text, { exact: true }).evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), prop);
    expect(await style("Red words", "color")).toBe("rgb(230, 0, 0)");
    expect(await style("Highlighted words", "background-color")).toBe("rgb(255, 255, 0)");
    expect(await style("Centered words", "text-align")).toBe("center");
    expect(await style("Right to left words", "direction")).toBe("rtl");
    const inline = body.locator('img[src^="/media/blog-images/"]');
    await inline.evaluate((img: HTMLImageElement) => img.decode());
    expect(await inline.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(120);
    expect(await page.getByRole("list", { name: "Tags" }).getByRole("listitem").allInnerTexts()).toEqual(["sleep", "bedding"]);
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
    expect(jsonLd).toMatchObject({ "@type": "BlogPosting", headline: "Sleep Better: A Guide, Part 1!" });

    // Edit: the slug stays, the title changes.
    await page.goto("/admin/blog");
    await page.getByRole("link", { name: 'Edit "Sleep Better: A Guide, Part 1!"' }).click();
    await page.getByRole("heading", { name: "Edit Post" }).waitFor();
    await editor.getByText("Bold words").waitFor();
    await page.getByLabel("Title *").fill("Sleep Better, Revised");
    expect(await page.getByLabel("URL Slug *").inputValue()).toBe("sleep-better-a-guide-part-1");
    await page.getByRole("button", { name: "Save Post" }).click();
    await seeToast(page, "Post updated successfully");
    await page.waitForURL((u) => u.pathname === "/admin/blog");
    const res = await page.goto("/blog/sleep-better-a-guide-part-1");
    expect(res?.status()).toBe(200);
    await page.getByRole("heading", { level: 1, name: "Sleep Better, Revised" }).waitFor();
    expect(await page.locator(".post-content strong", { hasText: "Bold words" }).count()).toBe(1);

    // Unpublish: the page answers 404 at once.
    await page.goto("/admin/blog");
    await page.getByRole("button", { name: 'Unpublish "Sleep Better, Revised"' }).click();
    await seeToast(page, "Post unpublished successfully");
    await page.getByRole("listitem").filter({ hasText: "Sleep Better, Revised" }).getByText("Draft", { exact: true }).waitFor();
    const hidden = await page.goto("/blog/sleep-better-a-guide-part-1");
    expect(hidden?.status()).toBe(404);
    await page.getByRole("heading", { name: "Post Not Found" }).waitFor();
    await page.goto("/blog");
    expect(await page.getByText("Sleep Better, Revised").count()).toBe(0);

    // Publish again from its card: back on the blog at once.
    await page.goto("/admin/blog");
    await page.getByRole("button", { name: 'Publish "Sleep Better, Revised"' }).click();
    await seeToast(page, "Post published successfully");
    await page.getByRole("listitem").filter({ hasText: "Sleep Better, Revised" }).getByText("Published", { exact: true }).waitFor();
    expect((await page.goto("/blog/sleep-better-a-guide-part-1"))?.status()).toBe(200);

    // Delete, after the confirmation.
    await page.goto("/admin/blog");
    await page.getByRole("button", { name: 'Delete "Sleep Better, Revised"' }).click();
    const dialog = page.getByRole("alertdialog", { name: "Delete Post" });
    await dialog.getByText('Are you sure you want to delete "Sleep Better, Revised"? This action cannot be undone.').waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByRole("button", { name: 'Delete "Sleep Better, Revised"' }).click();
    await dialog.getByRole("button", { name: "Delete", exact: true }).click();
    await seeToast(page, "Post deleted successfully");
    await page.getByText("No posts created yet").waitFor();
    expect((await page.goto("/blog/sleep-better-a-guide-part-1"))?.status()).toBe(404);
    expect(errors).toEqual([]);
  }, 180_000);
});
