import type { ReactNode } from "react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "~/components/ui/alert-dialog";
import { buttonVariants } from "~/components/ui/button";

type ConfirmDeleteProps = {
  title: string;
  description: ReactNode;
  onConfirm: () => void;
} & (
  | { /** The trigger (a button): the dialog opens itself. */ children: ReactNode; open?: never; onOpenChange?: never }
  | {
      /** Opened by its owner instead (one dialog for a whole list, so its answer outlives the deleted row). */
      open: boolean;
      onOpenChange: (open: boolean) => void;
      children?: never;
    }
);

/** A confirmation precedes every delete (docs/rules/admin.md). */
export function ConfirmDelete({ title, description, onConfirm, children, open, onOpenChange }: ConfirmDeleteProps) {
  return (
    <AlertDialog open={open} onOpenChange={onOpenChange}>
      {children ? <AlertDialogTrigger asChild>{children}</AlertDialogTrigger> : null}
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction className={buttonVariants({ variant: "destructive" })} onClick={onConfirm}>
            Delete
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
