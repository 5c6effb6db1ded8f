import { lazy, Suspense, useEffect, useSyncExternalStore, type ComponentProps } from "react";
import { onToasterWanted, toasterWanted, wantToaster } from "~/lib/toast";

const Toaster = lazy(() => import("~/components/ui/sonner").then((m) => ({ default: m.Toaster })));

/**
 * Sonner's Toaster, loaded only when a page needs it: at once where `eager` (admin pages, whose
 * code imports sonner anyway), otherwise on the first `toast` from ~/lib/toast. Once mounted it
 * stays, so a toast made just before a navigation still shows.
 */
export function LazyToaster({ eager, ...props }: { eager: boolean } & ComponentProps<typeof Toaster>) {
  const wanted = useSyncExternalStore(onToasterWanted, toasterWanted, () => false);
  useEffect(() => {
    if (eager) wantToaster();
  }, [eager]);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster {...props} />
    </Suspense>
  );
}
