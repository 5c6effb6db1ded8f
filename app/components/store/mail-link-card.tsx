import type { ReactNode } from "react";
import { Link } from "react-router";
import {
  Card,
  CardContent,
  CardHeader,
  CardTitle,
} from "~/components/ui/lean/card";

/** The page a link from a mail opens (newsletter confirm/unsubscribe, reminder opt-out): a title, what happened or a button, and the way back. */
export function MailLinkCard({
  title,
  children,
}: {
  title: string;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1 className="text-2xl font-bold">{title}</h1>
          </CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          {children}
          <Link to="/" className="text-sm underline">
            Back to the shop
          </Link>
        </CardContent>
      </Card>
    </div>
  );
}
