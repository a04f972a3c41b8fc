// The tactile keypad (a USB keypad arrives as keyboard keys) and what the audio guide says about
// the focused element. Pure DOM helpers, no React.
import type { TFunction } from "i18next";

export type KeypadCommand = "next" | "previous" | "back" | "help" | "volumeUp" | "volumeDown" | "headset" | "moreTime";

function inTextField(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.tagName === "TEXTAREA" || (target.tagName === "INPUT" && (target as HTMLInputElement).type !== "button"));
}

/**
 * What a key means on the keypad. Up/Down always move; Left/Right move too outside text fields
 * (mirrored on a right-to-left screen); Enter and Space select natively. Keys that would type in a
 * text field (+, −, ?) only count outside one; function keys always do.
 */
export function keypadCommand(event: Pick<KeyboardEvent, "key" | "altKey" | "ctrlKey" | "metaKey" | "target">, dir: "ltr" | "rtl"): KeypadCommand | null {
  if (event.altKey || event.ctrlKey || event.metaKey) return null;
  const text = inTextField(event.target);
  switch (event.key) {
    case "ArrowDown":
      return "next";
    case "ArrowUp":
      return "previous";
    case "ArrowRight":
      return text ? null : dir === "rtl" ? "previous" : "next";
    case "ArrowLeft":
      return text ? null : dir === "rtl" ? "next" : "previous";
    case "BrowserBack":
    case "Escape":
      return "back";
    case "Backspace":
      return text ? null : "back";
    case "F1":
    case "Help":
      return "help";
    case "?":
      return text ? null : "help";
    case "AudioVolumeUp":
      return "volumeUp";
    case "AudioVolumeDown":
      return "volumeDown";
    case "+":
    case "=":
      return text ? null : "volumeUp";
    case "-":
      return text ? null : "volumeDown";
    case "F2":
      return "headset";
    case "F3":
      return "moreTime";
    default:
      return null;
  }
}

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The elements the keypad moves through, in reading order: inside an open dialog only. */
export function focusables(root: ParentNode = document): HTMLElement[] {
  const dialog = root.querySelector<HTMLElement>('[role="alertdialog"], [role="dialog"][aria-modal="true"]');
  return [...(dialog ?? root).querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest("[hidden], [inert]") && el.getAttribute("aria-hidden") !== "true");
}

/** Moves focus to the next or previous element (wrapping), returning it. */
export function moveFocus(direction: 1 | -1, root: ParentNode = document): HTMLElement | null {
  const list = focusables(root);
  if (list.length === 0) return null;
  const active = document.activeElement;
  const current = list.indexOf(active as HTMLElement);
  let index: number;
  if (current >= 0) index = (current + direction + list.length) % list.length;
  else {
    // Focus on something the keypad does not stop at (a new screen's heading): move on from there,
    // not from the top of the page, so each screen starts at its own content.
    const after = active && active !== document.body ? list.findIndex((el) => active.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) : -1;
    index = after < 0 ? (direction === 1 ? 0 : list.length - 1) : direction === 1 ? after : (after - 1 + list.length) % list.length;
  }
  const next = list[index]!;
  next.focus();
  return next;
}

function textOf(el: Element | null): string {
  return (el?.textContent ?? "").replace(/\s+/g, " ").trim();
}

/** The accessible name, as far as the kiosk's own markup needs: aria-label, labelledby, label, text. */
export function accessibleName(el: HTMLElement): string {
  const label = el.getAttribute("aria-label");
  if (label) return label.trim();
  const labelledBy = el.getAttribute("aria-labelledby");
  if (labelledBy) return labelledBy.split(/\s+/).map((id) => textOf(document.getElementById(id))).join(" ").trim();
  if (el.id) {
    const forLabel = document.querySelector(`label[for="${CSS.escape(el.id)}"]`);
    if (forLabel) return textOf(forLabel);
  }
  return textOf(el);
}

/** What the audio guide says when `el` gets focus: its name, role and state, and why it is unavailable. */
export function describeFocus(el: HTMLElement, t: TFunction): string {
  const name = accessibleName(el);
  const role = el.getAttribute("role") ?? (el.tagName === "BUTTON" ? "button" : el.tagName === "INPUT" || el.tagName === "TEXTAREA" ? "textbox" : el.tagName.startsWith("H") && el.tagName.length === 2 ? "heading" : "");
  const describedBy = (el.getAttribute("aria-describedby") ?? "")
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => textOf(document.getElementById(id)))
    .filter(Boolean)
    .join(" ");
  let spoken: string;
  if (role === "radio") spoken = t("a11y.radio", { name, state: t(el.getAttribute("aria-checked") === "true" ? "a11y.selected" : "a11y.notSelected") });
  else if (role === "switch") spoken = t("a11y.switch", { name, state: t(el.getAttribute("aria-checked") === "true" ? "a11y.on" : "a11y.off") });
  else if (role === "textbox" || role === "searchbox") spoken = t("a11y.textbox", { name, value: (el as HTMLInputElement).value || t("a11y.empty") });
  else if (role === "heading") spoken = t("a11y.heading", { name });
  else if (el.getAttribute("aria-pressed") === "true") spoken = t("a11y.pressed", { name });
  else if (el.getAttribute("aria-disabled") === "true") spoken = t("a11y.buttonUnavailable", { name });
  else spoken = t("a11y.button", { name });
  return describedBy ? `${spoken}. ${describedBy}` : spoken;
}
