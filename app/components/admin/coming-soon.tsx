import { Construction } from "lucide-react";
import { Card, CardContent } from "~/components/ui/card";

/** Analytics, Customers and Reports show only '<Title> Coming Soon' (docs/rules/admin.md, Shell). */
export function ComingSoon({ title }: { title: string }) {
  return (
    <div className="mx-auto w-full max-w-7xl p-4 md:p-6">
      <h1 className="mb-6 text-2xl font-bold tracking-tight md:text-3xl">{title}</h1>
      <Card>
        <CardContent className="flex flex-col items-center gap-3 py-16 text-center">
          <Construction className="size-10 text-muted-foreground" aria-hidden="true" />
          <p className="text-xl font-semibold">{title} Coming Soon</p>
        </CardContent>
      </Card>
    </div>
  );
}
