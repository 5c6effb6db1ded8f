import { Pencil } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";

/**
 * A name that turns into a text box: saves on blur or Enter (docs/rules/admin.md), Escape cancels. A blank
 * name is refused with `emptyMessage` and the old name comes back.
 */
export function InlineEdit({
  value,
  label,
  emptyMessage,
  onSave,
  busy = false,
}: {
  value: string;
  /** Names the thing for screen readers, e.g. "category Bedding". */
  label: string;
  emptyMessage: string;
  onSave: (next: string) => void;
  busy?: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  const finished = useRef(false);

  useEffect(() => {
    if (!editing) setDraft(value);
  }, [value, editing]);

  const finish = (save: boolean) => {
    if (finished.current) return;
    finished.current = true;
    setEditing(false);
    if (!save) return setDraft(value);
    const next = draft.trim();
    if (next === value) return;
    if (!next) {
      toast.error(emptyMessage);
      return setDraft(value);
    }
    onSave(next);
  };

  if (editing) {
    return (
      <Input
        autoFocus
        aria-label={`New name for ${label}`}
        value={draft}
        maxLength={100}
        className="h-8 max-w-64"
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => finish(true)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            finish(true);
          } else if (e.key === "Escape") {
            e.preventDefault();
            finish(false);
          }
        }}
      />
    );
  }
  return (
    <span className="inline-flex items-center gap-1">
      <span className={busy ? "opacity-60" : undefined}>{busy ? draft : value}</span>
      <Button
        type="button"
        variant="ghost"
        size="icon"
        className="size-7"
        aria-label={`Rename ${label}`}
        onClick={() => {
          finished.current = false;
          setDraft(value);
          setEditing(true);
        }}
      >
        <Pencil aria-hidden="true" />
      </Button>
    </span>
  );
}
