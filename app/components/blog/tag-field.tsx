import { Plus, X } from "lucide-react";
import { useState } from "react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { cleanTags, TAG_MAX, TAGS_MAX } from "~/lib/blog";

/** The Tags card (docs/rules/blog.md): input + Add, Enter adds, blanks and duplicates ignored, each removable. */
export function TagField({ tags, onChange }: { tags: string[]; onChange: (tags: string[]) => void }) {
  const [draft, setDraft] = useState("");

  function add() {
    if (tags.length >= TAGS_MAX) return;
    onChange(cleanTags([...tags, draft]));
    setDraft("");
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Tags</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        <div className="flex gap-2">
          <Input
            aria-label="New tag"
            placeholder="Add a tag"
            value={draft}
            maxLength={TAG_MAX}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                add();
              }
            }}
          />
          <Button type="button" variant="outline" onClick={add}>
            <Plus aria-hidden="true" />
            Add
          </Button>
        </div>
        {tags.length > 0 ? (
          <ul aria-label="Tags" className="flex flex-wrap gap-2">
            {tags.map((tag) => (
              <li key={tag}>
                <Badge variant="secondary" className="gap-1 pr-1">
                  {tag}
                  <button
                    type="button"
                    aria-label={`Remove tag ${tag}`}
                    className="rounded-sm p-0.5 hover:bg-background/60 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                    onClick={() => onChange(tags.filter((t) => t !== tag))}
                  >
                    <X aria-hidden="true" className="size-3" />
                  </button>
                </Badge>
              </li>
            ))}
          </ul>
        ) : null}
      </CardContent>
    </Card>
  );
}
