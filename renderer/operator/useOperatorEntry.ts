// How staff open the operator tools from the attract screen: a long press (3 s) on the top corner
// (the brand), Ctrl+Alt+O on a keyboard, or #operator in the address (browsers, tests). Passengers
// see nothing; the tools themselves are behind the PIN.
import { useCallback, useEffect, useRef, useState, type PointerEvent } from "react";

export const OPERATOR_HASH = "#operator";
export const LONG_PRESS_MS = 3000;

export interface OperatorEntry {
  open: boolean;
  close(): void;
  /** Spread on the element that takes the long press. */
  pressHandlers: {
    onPointerDown(event: PointerEvent): void;
    onPointerUp(): void;
    onPointerLeave(): void;
    onPointerCancel(): void;
  };
}

export function useOperatorEntry(allowed: boolean, longPressMs = LONG_PRESS_MS): OperatorEntry {
  const [open, setOpen] = useState(() => allowed && typeof location !== "undefined" && location.hash === OPERATOR_HASH);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (!allowed) return;
    if (location.hash === OPERATOR_HASH) setOpen(true);
    const onHash = (): void => {
      if (location.hash === OPERATOR_HASH) setOpen(true);
    };
    const onKey = (event: KeyboardEvent): void => {
      if (event.ctrlKey && event.altKey && event.key.toLowerCase() === "o") setOpen(true);
    };
    window.addEventListener("hashchange", onHash);
    document.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("hashchange", onHash);
      document.removeEventListener("keydown", onKey);
    };
  }, [allowed]);

  const cancel = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  }, []);

  useEffect(() => cancel, [cancel]);

  const close = useCallback(() => {
    setOpen(false);
    if (location.hash === OPERATOR_HASH) history.replaceState(null, "", `${location.pathname}${location.search}`);
  }, []);

  return {
    open: open && allowed,
    close,
    pressHandlers: {
      onPointerDown: () => {
        if (!allowed) return;
        cancel();
        timer.current = setTimeout(() => setOpen(true), longPressMs);
      },
      onPointerUp: cancel,
      onPointerLeave: cancel,
      onPointerCancel: cancel,
    },
  };
}
