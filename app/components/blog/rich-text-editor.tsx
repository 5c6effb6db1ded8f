import type QuillType from "quill";
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { Skeleton } from "~/components/ui/skeleton";
import { EDITOR_IMAGE_TYPES, videoEmbedUrl } from "~/lib/blog";
import { uploadBlogImage } from "./upload-image";

/** The post editor's tools, exactly these (docs/rules/blog.md, Rich-text editor). */
export const TOOLBAR = [
  [{ header: [1, 2, 3, 4, 5, 6, false] }],
  ["bold", "italic", "underline", "strike"],
  ["blockquote", "code-block"],
  [{ list: "ordered" }, { list: "bullet" }],
  [{ script: "sub" }, { script: "super" }],
  [{ indent: "-1" }, { indent: "+1" }],
  [{ direction: "rtl" }],
  [{ color: [] }, { background: [] }],
  [{ align: [] }],
  ["link", "image"],
  ["clean"],
];

// Quill labels its buttons with format names ("list: ordered"); people hear these instead.
const BUTTON_LABELS: Record<string, string> = {
  bold: "Bold",
  italic: "Italic",
  underline: "Underline",
  strike: "Strikethrough",
  blockquote: "Quote",
  "code-block": "Code block",
  "list: ordered": "Numbered list",
  "list: bullet": "Bulleted list",
  "script: sub": "Subscript",
  "script: super": "Superscript",
  "indent: -1": "Decrease indent",
  "indent: +1": "Increase indent",
  "direction: rtl": "Right to left",
  link: "Link",
  image: "Image",
  clean: "Clear formatting",
};
const PICKER_LABELS: Record<string, [string, (value: string | null) => string]> = {
  "ql-header": ["Heading", (v) => (v ? `Heading ${v}` : "Normal text")],
  "ql-color": ["Text colour", (v) => (v ? `Text colour ${v}` : "Default text colour")],
  "ql-background": ["Background colour", (v) => (v ? `Background colour ${v}` : "No background colour")],
  "ql-align": ["Alignment", (v) => (v ? `Align ${v}` : "Align left")],
};

function labelToolbar(toolbar: HTMLElement) {
  toolbar.setAttribute("aria-label", "Formatting");
  for (const button of toolbar.querySelectorAll("button[aria-label]")) {
    const label = BUTTON_LABELS[button.getAttribute("aria-label")!];
    if (label) button.setAttribute("aria-label", label);
  }
  for (const [cls, [name, item]] of Object.entries(PICKER_LABELS)) {
    const picker = toolbar.querySelector(`.ql-picker.${cls}`);
    if (!picker) continue;
    picker.querySelector(".ql-picker-label")?.setAttribute("aria-label", name);
    for (const option of picker.querySelectorAll(".ql-picker-item")) {
      option.setAttribute("aria-label", item(option.getAttribute("data-value")));
    }
  }
}

/** Quill 2's semantic HTML writes every space as &nbsp; (2.0.3); plain spaces keep text wrapping normally. */
export function normaliseQuillHtml(html: string) {
  return html.replace(/&nbsp;/g, " ");
}

let configured = false;
function configure(Quill: typeof QuillType) {
  if (configured) return;
  configured = true;
  // Links only with http, https, mailto or tel; anything else becomes about:blank (docs/rules/blog.md).
  const Link = Quill.import("formats/link") as { PROTOCOL_WHITELIST: string[] };
  Link.PROTOCOL_WHITELIST = ["http", "https", "mailto", "tel"];
  // Quill 2.0.3 writes a video as a plain link in its semantic HTML; the post should keep the player.
  const Video = Quill.import("formats/video") as new (...args: never[]) => { value(): { video: string } };
  class EmbeddedVideo extends Video {
    html() {
      const src = this.value().video.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
      return `<iframe class="ql-video" frameborder="0" allowfullscreen="true" src="${src}"></iframe>`;
    }
  }
  Quill.register("formats/video", EmbeddedVideo, true);
}

async function insertImages(quill: QuillType, index: number, files: File[]) {
  let at = index;
  for (const file of files) {
    if (!(EDITOR_IMAGE_TYPES as readonly string[]).includes(file.type)) {
      toast.error("Failed to upload image", { description: "Choose a PNG, GIF, JPEG, BMP or ICO image." });
      continue;
    }
    const url = await uploadBlogImage(file);
    if (!url) continue;
    // Inserted by URL, never as a data URL: editor images are uploaded (docs/rules/blog.md).
    quill.insertEmbed(at, "image", url, "user");
    at += 1;
    toast.success("Image uploaded successfully");
  }
  quill.setSelection(at, 0, "user");
}

type Props = {
  initialHtml: string;
  onChange: (html: string) => void;
  labelledBy: string;
  hidden?: boolean;
};

/**
 * Quill 2 in the browser only: it touches `document` when imported, so it is loaded in an effect,
 * and only the admin editor renders this component.
 */
export function RichTextEditor({ initialHtml, onChange, labelledBy, hidden }: Props) {
  const hostRef = useRef<HTMLDivElement>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const initial = useRef(initialHtml);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    let disposed = false;
    import("quill")
      .then(({ default: Quill }) => {
        if (disposed) return;
        configure(Quill);
        const mount = document.createElement("div");
        mount.style.height = "400px";
        host.appendChild(mount);
        const quill: QuillType = new Quill(mount, {
          theme: "snow",
          placeholder: "Write your post...",
          modules: {
            toolbar: {
              container: TOOLBAR,
              handlers: {
                image() {
                  const input = document.createElement("input");
                  input.type = "file";
                  input.accept = EDITOR_IMAGE_TYPES.join(", ");
                  input.addEventListener("change", () => {
                    const range = quill.getSelection(true);
                    void insertImages(quill, range.index, Array.from(input.files ?? []));
                  });
                  input.click();
                },
              },
            },
            // Pasted or dropped image files go to storage too.
            uploader: {
              mimetypes: [...EDITOR_IMAGE_TYPES],
              handler(range: { index: number }, files: File[]) {
                void insertImages(quill, range.index, files);
              },
            },
          },
        });
        if (initial.current) quill.setContents(quill.clipboard.convert({ html: initial.current }), "silent");
        quill.root.setAttribute("role", "textbox");
        quill.root.setAttribute("aria-multiline", "true");
        quill.root.setAttribute("aria-labelledby", labelledBy);
        host.querySelector(".ql-tooltip input[type=text]")?.setAttribute("aria-label", "Link address");
        const toolbar = (quill.getModule("toolbar") as { container?: HTMLElement }).container;
        if (toolbar) labelToolbar(toolbar);
        // A pasted YouTube or Vimeo link becomes an embedded player (docs/rules/blog.md).
        quill.root.addEventListener(
          "paste",
          (event) => {
            const text = event.clipboardData?.getData("text/plain").trim() ?? "";
            const embed = text && !/\s/.test(text) ? videoEmbedUrl(text) : null;
            if (!embed) return;
            event.preventDefault();
            event.stopPropagation();
            const range = quill.getSelection(true);
            quill.insertEmbed(range.index, "video", embed, "user");
            quill.setSelection(range.index + 1, 0, "user");
          },
          true,
        );
        quill.on("text-change", () => onChangeRef.current(normaliseQuillHtml(quill.getSemanticHTML())));
        setReady(true);
      })
      .catch((err: unknown) => {
        console.error(err);
        toast.error("The editor could not load. Reload the page to try again.");
      });
    return () => {
      disposed = true;
      host.replaceChildren();
    };
  }, [labelledBy]);

  return (
    <div className={hidden ? "hidden" : undefined}>
      {ready ? null : <Skeleton className="h-[442px] w-full" role="status" aria-label="Loading the editor" />}
      <div ref={hostRef} className="rich-text-editor" data-ready={ready} />
    </div>
  );
}
