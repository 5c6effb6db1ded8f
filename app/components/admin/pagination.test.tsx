import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { Pagination } from "./pagination";

const render = (node: React.ReactNode) => renderToStaticMarkup(<MemoryRouter>{node}</MemoryRouter>);
/** [text, href] of each link, in order. */
const links = (html: string) =>
  [...html.matchAll(/<a [^>]*href="([^"]*)"[^>]*>([^<]*)<\/a>/g)].map((m) => [m[2], m[1]!.replaceAll("&amp;", "&")]);

describe("Pagination", () => {
  it("shows nothing for a list that fits one page", () => {
    expect(render(<Pagination label="Outbox pages" page={1} pages={1} href={(p) => `?page=${p}`} />)).toBe("");
  });

  it("links to the neighbouring pages that exist, around 'Page N of M'", () => {
    const first = render(<Pagination label="Outbox pages" page={1} pages={3} href={(p) => `?page=${p}`} />);
    expect(first).toContain('aria-label="Outbox pages"');
    expect(first).toContain("Page 1 of 3");
    expect(links(first)).toEqual([["Older", "/?page=2"]]);

    const middle = render(
      <Pagination label="Order pages" page={2} pages={3} href={(p) => `/admin/orders?page=${p}`} previous="Previous" next="Next" />,
    );
    expect(links(middle)).toEqual([
      ["Previous", "/admin/orders?page=1"],
      ["Next", "/admin/orders?page=3"],
    ]);

    const last = render(<Pagination label="Inbox pages" page={3} pages={3} href={(p) => `?status=all&page=${p}`} />);
    expect(links(last)).toEqual([["Newer", "/?status=all&page=2"]]);
  });
});
