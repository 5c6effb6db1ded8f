import { useEffect, useRef } from "react";
import { toast } from "sonner";

export type ActionResult = { ok: true; message: string } | { ok: false; error: string };

/** Toasts an action's answer once per answer: success plainly, failure in the destructive style. */
export function useResultToast(result: ActionResult | undefined, onSuccess?: () => void) {
  const shown = useRef<ActionResult | undefined>(undefined);
  const success = useRef(onSuccess);
  success.current = onSuccess;
  useEffect(() => {
    if (!result || shown.current === result) return;
    shown.current = result;
    if (result.ok) {
      toast.success(result.message);
      success.current?.();
    } else {
      toast.error(result.error);
    }
  }, [result]);
}
