import { Link } from "react-router";
import { DELETION_STAYS } from "~/lib/personal-data";
import { brandFrom } from "~/lib/seo";
import type { Route } from "./+types/account-deleted";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `Account deleted — ${brandFrom(matches)}` },
  { name: "robots", content: "noindex" },
];

/** Where a deleted account's visitor lands, signed out (docs/rules/personal-data.md). */
export default function AccountDeletedPage() {
  return (
    <div className="mx-auto grid max-w-lg gap-4 px-4 py-12">
      <h1 className="text-3xl font-bold">Your account has been deleted</h1>
      <p role="status">You are signed out. {DELETION_STAYS}</p>
      <p>
        <Link to="/" className="font-medium underline">
          Back to the shop
        </Link>
      </p>
    </div>
  );
}
