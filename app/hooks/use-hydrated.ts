import { useSyncExternalStore } from "react";

const noop = () => () => {};

/** False during server rendering and the first client render, true after hydration. */
export function useHydrated() {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}
