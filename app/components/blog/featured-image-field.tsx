import { ImagePlus, X } from "lucide-react";
import { useRef, useState } from "react";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { MESSAGES } from "~/lib/blog";
import { uploadBlogImage } from "./upload-image";

/** The Featured Image card (docs/rules/blog.md): 'Upload Image' ('Uploading...'), a preview, 'Remove Image'. */
export function FeaturedImageField({ url, onChange }: { url: string | null; onChange: (url: string | null) => void }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);

  async function upload(file: File | undefined) {
    if (!file) return;
    setUploading(true);
    const uploaded = await uploadBlogImage(file);
    setUploading(false);
    if (inputRef.current) inputRef.current.value = "";
    if (uploaded) {
      onChange(uploaded);
      toast.success(MESSAGES.imageUploaded);
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Featured Image</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        {url ? (
          <img src={url} alt="Featured image preview" className="aspect-video w-full rounded-md border object-cover" />
        ) : null}
        <input
          ref={inputRef}
          type="file"
          accept="image/*"
          className="sr-only"
          tabIndex={-1}
          aria-label="Featured image file"
          onChange={(e) => void upload(e.target.files?.[0])}
        />
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" disabled={uploading} onClick={() => inputRef.current?.click()}>
            <ImagePlus aria-hidden="true" />
            {uploading ? "Uploading..." : "Upload Image"}
          </Button>
          {url ? (
            <Button type="button" variant="outline" onClick={() => onChange(null)}>
              <X aria-hidden="true" />
              Remove Image
            </Button>
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}
