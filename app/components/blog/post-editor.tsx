import { ArrowLeft, Eye, Pencil, Save } from "lucide-react";
import { useState } from "react";
import { Link, useFetcher, useNavigate } from "react-router";
import { toast } from "sonner";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Switch } from "~/components/ui/switch";
import { Textarea } from "~/components/ui/textarea";
import {
  EXCERPT_MAX,
  htmlHasContent,
  MESSAGES,
  META_DESCRIPTION_MAX,
  META_TITLE_MAX,
  POST_BODY_MAX_BYTES,
  slugify,
  TITLE_MAX,
  type EditablePost,
} from "~/lib/blog";
import { cn } from "~/lib/utils";
import { FeaturedImageField } from "./featured-image-field";
import { PostPreview } from "./post-preview";
import { RichTextEditor } from "./rich-text-editor";
import { TagField } from "./tag-field";
import { useResultToast, type ActionResult } from "./use-result-toast";

type FormState = Omit<EditablePost, "id">;

const EMPTY: FormState = {
  title: "",
  slug: "",
  excerpt: "",
  content: "",
  featuredImageUrl: null,
  tags: [],
  // A new post starts unpublished and not featured (docs/rules/blog.md).
  published: false,
  featured: false,
  metaTitle: "",
  metaDescription: "",
};

/** Saving needs a signed-in user (docs/rules/blog.md, Saving); asked of the server just before saving, as the original did. */
async function isSignedIn(): Promise<boolean> {
  try {
    const res = await fetch("/api/auth/get-session", { headers: { Accept: "application/json" } });
    if (!res.ok) return false;
    const session = (await res.json()) as { user?: unknown } | null;
    return Boolean(session?.user);
  } catch {
    // Offline or the check itself failed: let the save try and report what the server says.
    return true;
  }
}

function Counter({ id, length, max }: { id: string; length: number; max: number }) {
  return (
    <p id={id} className={cn("text-xs text-muted-foreground", length >= max && "font-medium text-foreground")}>
      {length}/{max} characters
    </p>
  );
}

/** The post editor, 'Create New Post' / 'Edit Post' (docs/rules/blog.md). */
export function PostEditor({ post }: { post: EditablePost | null }) {
  const navigate = useNavigate();
  const saver = useFetcher<ActionResult>();
  const previewer = useFetcher<{ preview?: string; error?: string }>();
  const [form, setForm] = useState<FormState>(() => (post ? { ...post } : EMPTY));
  // The slug follows the title until someone types a slug of their own (docs/rules/blog.md, Slug).
  const [autoSlug, setAutoSlug] = useState(!post?.slug);
  const [mode, setMode] = useState<"edit" | "preview">("edit");
  const [checkingSession, setCheckingSession] = useState(false);
  const saving = checkingSession || saver.state !== "idle";

  useResultToast(saver.data, () => navigate("/admin/blog"));

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));

  async function save() {
    if (saving) return;
    if (!form.title.trim() || !htmlHasContent(form.content)) {
      toast.error(MESSAGES.required);
      return;
    }
    setCheckingSession(true);
    const signedIn = await isSignedIn();
    setCheckingSession(false);
    if (!signedIn) {
      toast.error(MESSAGES.loginRequired);
      return;
    }
    const payload = { intent: "save", ...form };
    if (new Blob([JSON.stringify(payload)]).size > POST_BODY_MAX_BYTES) {
      toast.error(MESSAGES.tooLarge);
      return;
    }
    void saver.submit(payload, { method: "post", encType: "application/json" });
  }

  function togglePreview() {
    if (mode === "preview") return setMode("edit");
    setMode("preview");
    void previewer.submit({ intent: "preview", content: form.content }, { method: "post", encType: "application/json" });
  }

  const previewHtml = previewer.state === "idle" ? (previewer.data?.preview ?? (previewer.data?.error ? "" : null)) : null;
  const slugPreview = slugify(form.slug);

  return (
    <div className="mx-auto w-full max-w-7xl p-4 md:p-6">
      <div className="mb-6 flex flex-wrap items-center gap-3">
        <Button asChild variant="ghost" size="sm">
          <Link to="/admin/blog">
            <ArrowLeft aria-hidden="true" />
            Back
          </Link>
        </Button>
        <h1 className="text-2xl font-bold tracking-tight">{post ? "Edit Post" : "Create New Post"}</h1>
        <div className="ml-auto flex gap-2">
          <Button type="button" variant="outline" onClick={togglePreview}>
            {mode === "edit" ? <Eye aria-hidden="true" /> : <Pencil aria-hidden="true" />}
            {mode === "edit" ? "Preview" : "Edit"}
          </Button>
          <Button type="button" onClick={() => void save()} disabled={saving}>
            <Save aria-hidden="true" />
            {saving ? "Saving..." : "Save Post"}
          </Button>
        </div>
      </div>

      {mode === "preview" ? (
        <PostPreview
          title={form.title}
          excerpt={form.excerpt}
          tags={form.tags}
          featuredImageUrl={form.featuredImageUrl}
          html={previewHtml}
        />
      ) : null}

      {/* Hidden, not unmounted, while previewing: the editor keeps its content and undo history. */}
      <div className={cn("grid gap-6 lg:grid-cols-3", mode === "preview" && "hidden")}>
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>
              <h2>Content</h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="space-y-5">
            <div className="space-y-2">
              <Label htmlFor="post-title">Title *</Label>
              <Input
                id="post-title"
                required
                maxLength={TITLE_MAX}
                placeholder="Enter post title"
                value={form.title}
                onChange={(e) => {
                  const title = e.target.value;
                  setForm((f) => ({ ...f, title, slug: autoSlug ? slugify(title) : f.slug }));
                }}
              />
            </div>
            <div className="space-y-2">
              <Label htmlFor="post-slug">URL Slug *</Label>
              <Input
                id="post-slug"
                required
                placeholder="url-friendly-slug"
                aria-describedby="post-slug-hint"
                value={form.slug}
                onChange={(e) => {
                  set("slug", e.target.value);
                  setAutoSlug(e.target.value === "");
                }}
                onBlur={() => set("slug", slugify(form.slug))}
              />
              <p id="post-slug-hint" className="text-xs break-all text-muted-foreground">
                {slugPreview ? `/blog/${slugPreview}` : "Letters, digits and hyphens"}
              </p>
            </div>
            <div className="space-y-2">
              <Label htmlFor="post-excerpt">Excerpt</Label>
              <Textarea
                id="post-excerpt"
                rows={3}
                maxLength={EXCERPT_MAX}
                className="field-sizing-fixed"
                placeholder="Brief description of the post"
                value={form.excerpt}
                onChange={(e) => set("excerpt", e.target.value)}
              />
            </div>
            <div className="space-y-2">
              <Label id="post-content-label" asChild>
                <p>Content *</p>
              </Label>
              <RichTextEditor
                initialHtml={post?.content ?? ""}
                labelledBy="post-content-label"
                onChange={(html) => set("content", html)}
              />
            </div>
          </CardContent>
        </Card>

        <div className="space-y-6">
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>SEO Settings</h2>
              </CardTitle>
            </CardHeader>
            <CardContent className="space-y-4">
              <div className="space-y-2">
                <Label htmlFor="meta-title">Meta Title</Label>
                <Input
                  id="meta-title"
                  maxLength={META_TITLE_MAX}
                  placeholder="SEO title"
                  aria-describedby="meta-title-count"
                  value={form.metaTitle}
                  onChange={(e) => set("metaTitle", e.target.value)}
                />
                <Counter id="meta-title-count" length={form.metaTitle.length} max={META_TITLE_MAX} />
              </div>
              <div className="space-y-2">
                <Label htmlFor="meta-description">Meta Description</Label>
                <Textarea
                  id="meta-description"
                  rows={3}
                  maxLength={META_DESCRIPTION_MAX}
                  className="field-sizing-fixed"
                  placeholder="SEO description"
                  aria-describedby="meta-description-count"
                  value={form.metaDescription}
                  onChange={(e) => set("metaDescription", e.target.value)}
                />
                <Counter id="meta-description-count" length={form.metaDescription.length} max={META_DESCRIPTION_MAX} />
              </div>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Settings</h2>
              </CardTitle>
            </CardHeader>
            <CardContent className="space-y-4">
              <div className="flex items-center justify-between gap-4">
                <Label htmlFor="post-published">Published</Label>
                <Switch id="post-published" checked={form.published} onCheckedChange={(v) => set("published", v)} />
              </div>
              <div className="flex items-center justify-between gap-4">
                <Label htmlFor="post-featured">Featured</Label>
                <Switch id="post-featured" checked={form.featured} onCheckedChange={(v) => set("featured", v)} />
              </div>
            </CardContent>
          </Card>

          <FeaturedImageField url={form.featuredImageUrl} onChange={(url) => set("featuredImageUrl", url)} />
          <TagField tags={form.tags} onChange={(tags) => set("tags", tags)} />
        </div>
      </div>
    </div>
  );
}
