import { Search } from "~/components/ui/lean/icons/search";
import { ShoppingCart } from "~/components/ui/lean/icons/shopping-cart";
import { User } from "~/components/ui/lean/icons/user";
import { Link, NavLink, useLocation, useNavigate, useSearchParams } from "react-router";
import { Input } from "~/components/ui/lean/input";
import { useCartItemCount } from "~/lib/cart-read";
import { SEARCH_MAX_LENGTH, searchHref } from "~/lib/shop-url";
import { clsx } from "~/components/ui/lean/clsx";

type Props = {
  logoText: string;
  logoUrl: string;
  signedIn: boolean;
  isAdmin: boolean;
};

/**
 * The header search (docs/rules/storefront.md): trimmed, encoded, /shop?search=<term>; empty or blank → plain /shop.
 * Without JavaScript the GET form sends the raw term and /shop's loader tidies the URL.
 */
function HeaderSearch({ id, className }: { id: string; className?: string }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const current = params.get("search") ?? "";
  return (
    <form
      method="get"
      action="/shop"
      role="search"
      aria-label="Site search"
      className={className}
      onSubmit={(e) => {
        e.preventDefault();
        const input = e.currentTarget.elements.namedItem("search") as HTMLInputElement;
        navigate(searchHref(input.value));
      }}
    >
      <label htmlFor={id} className="sr-only">
        Search products
      </label>
      <div className="relative">
        <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
        {/* Keyed by the URL's term so the box follows navigation (it is uncontrolled). */}
        <Input
          key={current}
          id={id}
          name="search"
          type="search"
          placeholder="Search products..."
          defaultValue={current}
          maxLength={SEARCH_MAX_LENGTH}
          className="pl-9"
        />
      </div>
    </form>
  );
}

/** The header, on every storefront page (docs/rules/storefront.md). */
export function SiteHeader({ logoText, logoUrl, signedIn, isAdmin }: Props) {
  const itemCount = useCartItemCount();
  // /shop has its own search box; a second one on a phone only pushes the products down.
  const onShop = useLocation().pathname === "/shop";
  const links = [
    { to: "/", label: "Home" },
    { to: "/shop", label: "Shop" },
    { to: "/blog", label: "Blog" },
    ...(isAdmin ? [{ to: "/admin", label: "Admin" }] : []),
    { to: "/contact", label: "Contact" },
  ];
  const cartLabel = `Cart, ${itemCount} ${itemCount === 1 ? "item" : "items"}`;
  return (
    <header className="top-0 z-40 border-b bg-background/95 backdrop-blur sm:sticky">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4">
        <Link to="/" className="flex min-w-0 shrink items-center gap-2 text-xl font-semibold tracking-tight">
          {logoUrl ? <img src={logoUrl} alt="" width={32} height={32} className="size-8 shrink-0 object-contain" /> : null}
          <span className="truncate">{logoText}</span>
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-5 text-sm md:flex">
          {links.map((l) => (
            <NavLink
              key={l.to}
              to={l.to}
              end={l.to === "/"}
              className={({ isActive }) =>
                clsx("transition-colors hover:text-primary", isActive ? "font-medium text-primary" : "text-muted-foreground")
              }
            >
              {l.label}
            </NavLink>
          ))}
        </nav>
        <HeaderSearch id="header-search" className="ml-auto hidden max-w-xs flex-1 sm:block" />
        <div className="ml-auto flex shrink-0 items-center gap-1 sm:ml-0">
          <Link
            to={signedIn ? "/profile" : "/auth"}
            className="rounded-md p-2 hover:bg-accent"
            aria-label={signedIn ? "My account" : "Sign in"}
          >
            <User className="size-5" aria-hidden />
          </Link>
          <Link to="/cart" className="relative rounded-md p-2 hover:bg-accent" aria-label={cartLabel}>
            <ShoppingCart className="size-5" aria-hidden />
            {itemCount > 0 ? (
              <span
                aria-hidden
                data-testid="cart-count"
                className="absolute -top-0.5 -right-0.5 flex min-w-5 items-center justify-center rounded-full bg-primary px-1 text-xs font-medium text-primary-foreground"
              >
                {itemCount > 99 ? "99+" : itemCount}
              </span>
            ) : null}
          </Link>
        </div>
      </div>
      {onShop ? null : (
        <div className="border-t px-4 py-2 sm:hidden">
          <HeaderSearch id="header-search-mobile" />
        </div>
      )}
      <nav aria-label="Main mobile" className="flex gap-4 overflow-x-auto border-t px-4 py-2 text-sm md:hidden">
        {links.map((l) => (
          <NavLink
            key={l.to}
            to={l.to}
            end={l.to === "/"}
            className={({ isActive }) =>
              clsx("shrink-0 py-1 hover:text-primary", isActive ? "font-medium text-primary" : "text-muted-foreground")
            }
          >
            {l.label}
          </NavLink>
        ))}
      </nav>
    </header>
  );
}
