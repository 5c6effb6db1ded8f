import { ImageIcon, Trash2, Upload } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";

export type UploadResult = { ok: true; url: string } | { ok: false; error: string; reason: string };

/**
 * An image setting (logo, hero background): uploads the chosen file at once to the page's
 * action, shows a preview, and keeps the URL in a hidden field that 'Save Changes' stores.
 */
export function ImageSetting({
  name,
  label,
  intent,
  successMessage,
  value,
  onChange,
  hint,
}: {
  name: string;
  label: string;
  intent: "upload-logo" | "upload-hero";
  successMessage: string;
  value: string;
  onChange: (url: string) => void;
  hint?: string;
}) {
  const fetcher = useFetcher<UploadResult>();
  const inputId = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const uploading = fetcher.state !== "idle";

  // Reacts once per upload answer; `fetcher.data` keeps its identity until the next answer.
  const handled = useRef<unknown>(null);
  useEffect(() => {
    const result = fetcher.data;
    if (!result || fetcher.state !== "idle" || handled.current === result) return;
    handled.current = result;
    if (result.ok) {
      setError(null);
      onChange(result.url);
      toast.success(successMessage);
    } else {
      setError(result.reason);
      toast.error(result.error, { description: result.reason });
    }
    if (fileRef.current) fileRef.current.value = "";
  }, [fetcher.data, fetcher.state, onChange, successMessage]);

  function upload(file: File | undefined) {
    if (!file) return;
    const form = new FormData();
    form.set("intent", intent);
    form.set("file", file);
    fetcher.submit(form, { method: "post", encType: "multipart/form-data" });
  }

  return (
    <div className="space-y-3">
      <Label htmlFor={inputId}>{label}</Label>
      <input type="hidden" name={name} value={value} />
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <div className="flex h-28 w-full items-center justify-center overflow-hidden rounded-md border bg-muted sm:w-48">
          {value ? (
            <img src={value} alt={`${label} preview`} className="h-full w-full object-contain" />
          ) : (
            <ImageIcon className="size-8 text-muted-foreground" aria-hidden="true" />
          )}
        </div>
        <div className="space-y-2">
          <input
            ref={fileRef}
            id={inputId}
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp,image/avif"
            className="sr-only"
            onChange={(e) => upload(e.currentTarget.files?.[0])}
            disabled={uploading}
            aria-describedby={error ? `${inputId}-error` : undefined}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="button" variant="outline" disabled={uploading} onClick={() => fileRef.current?.click()}>
              <Upload aria-hidden="true" />
              {uploading ? "Uploading..." : "Upload Image"}
            </Button>
            {value ? (
              <Button type="button" variant="ghost" disabled={uploading} onClick={() => onChange("")}>
                <Trash2 aria-hidden="true" />
                Remove Image
              </Button>
            ) : null}
          </div>
          <p className="text-xs text-muted-foreground">{hint ?? "PNG, JPEG, GIF, WebP or AVIF, up to 5 MB."}</p>
          {error ? (
            <p id={`${inputId}-error`} role="alert" className="text-sm text-destructive">
              {error}
            </p>
          ) : null}
        </div>
      </div>
    </div>
  );
}
