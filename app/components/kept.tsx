import { use, useState, useSyncExternalStore, type ComponentType, type DOMAttributes, type MouseEvent } from "react";
import { useNavigate } from "react-router";

const noSubscription = () => () => {};

type WrapperHandlers = Pick<DOMAttributes<HTMLDivElement>, "onClick" | "onFocus" | "onPointerOver" | "onInput" | "onSubmit">;

/** A click on a same-site link inside kept markup: followed by the router, as a <Link> would be. */
function followLink(e: MouseEvent<HTMLDivElement>, navigate: (to: string) => void) {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.altKey || e.ctrlKey || e.shiftKey) return;
  const link = (e.target as Element).closest("a");
  if (!link || (link.target && link.target !== "_self") || link.hasAttribute("download")) return;
  const url = new URL(link.href);
  if (url.origin !== window.location.origin) return;
  e.preventDefault();
  navigate(url.pathname + url.search + url.hash);
}

export type Kept<P> = ComponentType<P> & {
  /** Loads the part's code; once it is in, the browser draws new copies without waiting. */
  preload: () => Promise<unknown>;
};

/**
 * A part of a page that the browser keeps exactly as the server drew it, so that its code is not
 * part of the page's first load (docs/decisions/0025-kept-markup.md).
 *
 * Hydration leaves the server's markup in place: React does not look inside an element whose
 * content is dangerouslySetInnerHTML, and an unchanged `__html` is never written again. The part's
 * code loads only when the browser has to draw it itself: a copy first drawn after hydration (the
 * page reached by a link, inside the router's transition, so the old page stays until the code is
 * in) or a kept copy whose props change. Links inside kept markup are followed by the router;
 * anything else interactive inside needs `handlers`, which the wrapper gets while it keeps markup.
 *
 * Props must be JSON apart from functions (a kept copy compares them, as JSON, with the props the
 * server drew it with).
 */
export function kept<P extends object>(load: () => Promise<ComponentType<P>>, handlers?: (props: P) => WrapperHandlers): Kept<P> {
  let Live: ComponentType<P> | null = null;
  let loading: Promise<unknown> | null = null;
  const preload = () =>
    (loading ??= load().then(
      (component) => {
        Live = component;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));

  function KeptPart(props: P) {
    // True only while hydrating (React renders with the server snapshot then); latched below.
    const hydrating = useSyncExternalStore(noSubscription, () => false, () => true);
    const [drawn] = useState(() => (hydrating ? JSON.stringify(props) : null));
    const navigate = useNavigate();
    if (typeof document !== "undefined" && drawn !== null && drawn === JSON.stringify(props)) {
      const own = handlers?.(props);
      return (
        <div
          className="contents"
          onFocus={own?.onFocus}
          onPointerOver={own?.onPointerOver}
          onInput={own?.onInput}
          onSubmit={own?.onSubmit}
          onClick={(e) => {
            own?.onClick?.(e);
            followLink(e, (to) => void navigate(to));
          }}
          dangerouslySetInnerHTML={{ __html: "" }}
          suppressHydrationWarning
        />
      );
    }
    if (!Live) use(preload());
    const Part = Live!;
    return (
      <div className="contents">
        <Part {...props} />
      </div>
    );
  }
  return Object.assign(KeptPart, { preload });
}
