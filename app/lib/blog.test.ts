import { describe, expect, it } from "vitest";
import { cleanTags, formatPostDate, htmlHasContent, isSafeImageUrl, slugify, videoEmbedUrl } from "./blog";

describe("slugify (the slug rule of docs/rules/blog.md)", () => {
  it.each([
    ["Hello World", "hello-world"],
    ["Sleep Better: A Guide, Part 1!", "sleep-better-a-guide-part-1"],
    ["  many   spaces  ", "many-spaces"],
    ["already-a-slug", "already-a-slug"],
    ["double--hyphen - and space", "double-hyphen-and-space"],
    ["Café crème brûlée", "cafe-creme-brulee"],
    ["Ünïcödé", "unicode"],
    ["snake_case_title", "snake-case-title"],
    ["!!!", ""],
    ["日本語", ""],
  ])("%j → %j", (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });

  it("keeps slugs to 120 characters without a trailing hyphen", () => {
    const slug = slugify(`${"word ".repeat(60)}`);
    expect(slug.length).toBeLessThanOrEqual(120);
    expect(slug.endsWith("-")).toBe(false);
  });
});

describe("cleanTags", () => {
  it("trims, drops blanks and duplicates (first spelling wins)", () => {
    expect(cleanTags([" sleep ", "", "   ", "Sleep", "bed  ding", "bed ding"])).toEqual(["sleep", "bed ding"]);
  });
});

describe("htmlHasContent", () => {
  it("sees Quill's empty editor as empty, and text, images or videos as content", () => {
    expect(htmlHasContent("<p><br></p>")).toBe(false);
    expect(htmlHasContent("<p>&nbsp;</p><p> </p>")).toBe(false);
    expect(htmlHasContent("<p>x</p>")).toBe(true);
    expect(htmlHasContent('<p><img src="/media/a.png"></p>')).toBe(true);
    expect(htmlHasContent('<iframe src="https://player.vimeo.com/video/1"></iframe>')).toBe(true);
  });
});

describe("isSafeImageUrl", () => {
  it("accepts our uploads and web addresses only", () => {
    expect(isSafeImageUrl("/media/blog-images/1.png")).toBe(true);
    expect(isSafeImageUrl("https://cdn.example.com/a.jpg")).toBe(true);
    for (const bad of ["//evil.example/a.png", "javascript:alert(1)", "data:image/png;base64,AA", "/\\evil.example", "a.png"]) {
      expect(isSafeImageUrl(bad), bad).toBe(false);
    }
  });
});

describe("videoEmbedUrl (docs/rules/blog.md)", () => {
  it.each([
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "https://www.youtube.com/embed/dQw4w9WgXcQ"],
    ["https://m.youtube.com/watch?feature=share&v=dQw4w9WgXcQ", "https://www.youtube.com/embed/dQw4w9WgXcQ"],
    ["https://youtu.be/dQw4w9WgXcQ?t=3", "https://www.youtube.com/embed/dQw4w9WgXcQ"],
    ["https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ", "https://www.youtube.com/embed/dQw4w9WgXcQ"],
    ["https://vimeo.com/76979871", "https://player.vimeo.com/video/76979871"],
    ["https://player.vimeo.com/video/76979871/", "https://player.vimeo.com/video/76979871"],
  ])("%s → %s", (url, embed) => {
    expect(videoEmbedUrl(url)).toBe(embed);
  });

  it("refuses everything else", () => {
    for (const url of ["https://evil.example/watch?v=dQw4w9WgXcQ", "https://www.youtube.com.evil.example/embed/dQw4w9WgXcQ", "javascript:alert(1)", "https://vimeo.com/abc"]) {
      expect(videoEmbedUrl(url), url).toBeNull();
    }
  });
});

describe("formatPostDate", () => {
  it("prints 'MMM d, yyyy' in UTC", () => {
    expect(formatPostDate(new Date("2026-11-22T23:30:00Z"))).toBe("Nov 22, 2026");
    expect(formatPostDate("2026-01-05T00:00:00Z")).toBe("Jan 5, 2026");
  });
  it("refuses a date that is not one, as Intl does", () => {
    expect(() => formatPostDate("not a date")).toThrow(RangeError);
  });
});
