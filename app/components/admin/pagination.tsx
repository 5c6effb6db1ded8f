import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/utils";

type PaginationProps = {
  /** The navigation landmark's name, e.g. "Outbox pages". */
  label: string;
  page: number;
  pages: number;
  /** The link to another page of the same list (keeps the list's other filters). */
  href: (page: number) => string;
  /** Newest-first lists go back to "Newer" and on to "Older". */
  previous?: string;
  next?: string;
  className?: string;
};

/** Previous/next links around "Page N of M" under an admin list; nothing when it fits one page. */
export function Pagination({ label, page, pages, href, previous = "Newer", next = "Older", className }: PaginationProps) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className={cn("flex items-center justify-between", className)}>
      {page > 1 ? (
        <Button asChild variant="outline">
          <Link to={href(page - 1)}>{previous}</Link>
        </Button>
      ) : (
        <span />
      )}
      <span className="text-sm text-muted-foreground">
        Page {page} of {pages}
      </span>
      {page < pages ? (
        <Button asChild variant="outline">
          <Link to={href(page + 1)}>{next}</Link>
        </Button>
      ) : (
        <span />
      )}
    </nav>
  );
}
