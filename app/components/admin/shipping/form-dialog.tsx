import type { ReactNode } from "react";
import { Button } from "~/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "~/components/ui/dialog";

/** A dialog of the Shipping & Tax screen: its title and sentence, the form's fields, then Cancel and Save. */
export function FormDialog({
  title,
  description,
  saveLabel,
  busy,
  onSubmit,
  onClose,
  className,
  children,
}: {
  title: string;
  description: ReactNode;
  /** 'Save Rate': 'Saving...' while the write is out. */
  saveLabel: string;
  busy: boolean;
  onSubmit: (event: React.FormEvent) => void;
  onClose: () => void;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className={className}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {children}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? "Saving..." : saveLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
