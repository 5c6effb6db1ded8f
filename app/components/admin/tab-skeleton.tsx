import { Skeleton } from "~/components/ui/skeleton";

export function TabSkeleton() {
  return (
    <div className="space-y-3" role="status" aria-busy="true" aria-label="Loading">
      <Skeleton className="h-9 w-full max-w-sm" />
      {Array.from({ length: 6 }, (_, i) => (
        <Skeleton key={i} className="h-12 w-full" />
      ))}
    </div>
  );
}
