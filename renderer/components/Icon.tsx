// Small inline icons (decorative: every icon sits next to text that says the same).
import type { BannerSeverity } from "../lib/types.ts";

type IconName = BannerSeverity | "staff" | "swap" | "info-board" | "ticket" | "card" | "speaker" | "check" | "cross" | "spinner" | "contrast" | "text-size" | "keyboard" | "chat";

const PATHS: Record<IconName, string> = {
  critical: "M8 2h8l6 6v8l-6 6H8l-6-6V8zM11 6v8h2V6zm0 10v2h2v-2z",
  warning: "M12 2 1 21h22zm-1 7h2v6h-2zm0 8h2v2h-2z",
  info: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm-1 5h2v2h-2zm0 4h2v6h-2z",
  positive: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm-1.5 14.5-4-4 1.4-1.4 2.6 2.6 5.6-5.6 1.4 1.4z",
  staff: "M12 2a4 4 0 1 1 0 8 4 4 0 0 1 0-8zm0 10c4.4 0 8 2.2 8 5v3H4v-3c0-2.8 3.6-5 8-5z",
  swap: "M7 4 3 8l4 4V9h10V7H7zm10 8v3H7v2h10v3l4-4z",
  "info-board": "M3 4h18v12H3zm2 2v8h14V6zm3 12h8v2H8z",
  ticket: "M3 6h18v4a2 2 0 0 0 0 4v4H3v-4a2 2 0 0 0 0-4zm9 1v2h2V7zm0 4v2h2v-2zm0 4v2h2v-2z",
  card: "M2 5h20v14H2zm2 2v2h16V7zm0 5v5h16v-5z",
  speaker: "M3 9h4l5-4v14l-5-4H3zm13.5 3a4.5 4.5 0 0 0-2.5-4v8a4.5 4.5 0 0 0 2.5-4z",
  check: "M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z",
  cross: "M19 6.4 17.6 5 12 10.6 6.4 5 5 6.4 10.6 12 5 17.6 6.4 19 12 13.4 17.6 19 19 17.6 13.4 12z",
  spinner: "M12 2a10 10 0 1 0 10 10h-3a7 7 0 1 1-7-7z",
  contrast: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 2v16a8 8 0 0 1 0-16z",
  "text-size": "M8 4h2l5 14h-2.2l-1.2-3.5H5.4L4.2 18H2zm-1.9 8.5h4.8L8.5 6zM18 9h1.6l3.4 9h-1.7l-.8-2.2h-3.4l-.8 2.2h-1.7zm-.3 5.2h2.6L19 10.6z",
  keyboard: "M2 6h20v12H2zm2 2v2h2V8zm4 0v2h2V8zm4 0v2h2V8zm4 0v2h2V8zM4 12v2h2v-2zm4 0v2h2v-2zm4 0v2h2v-2zm4 0v2h2v-2zM7 15v1h10v-1z",
  chat: "M3 4h18v12H8l-5 4zm3 4v2h12V8zm0 3v2h8v-2z",
};

export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg className={`icon icon-${name}${className ? ` ${className}` : ""}`} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="currentColor" />
    </svg>
  );
}
