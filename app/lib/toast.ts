import type { ExternalToast } from "sonner";

/**
 * `toast.success()` / `toast.error()` for the storefront, loading sonner (about 9 KB gzip) on the
 * first toast instead of on every first visit. The root's LazyToaster mounts sonner's Toaster
 * when asked; sonner shows toasts made before its Toaster mounted. Admin pages, which load
 * sonner anyway, may keep importing `toast` from "sonner" directly.
 */
let wanted = false;
const listeners = new Set<() => void>();

export function toasterWanted(): boolean {
  return wanted;
}

export function onToasterWanted(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function wantToaster() {
  if (wanted) return;
  wanted = true;
  listeners.forEach((l) => l());
}

function show(kind: "success" | "error", title: string, options?: ExternalToast) {
  wantToaster();
  void import("sonner").then((m) => m.toast[kind](title, options));
}

export const toast = {
  success: (title: string, options?: ExternalToast) => show("success", title, options),
  error: (title: string, options?: ExternalToast) => show("error", title, options),
};
