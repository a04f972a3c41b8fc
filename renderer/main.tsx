// Renderer entry: pick the bridge (Electron preload, `kiosk serve`, or the fake one in dev) and
// mount the kiosk screen.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createBridge } from "./bridge/selectBridge.ts";
import { KioskApp } from "./app/KioskApp.tsx";
import "./styles/fonts.ts";
import "./styles/kiosk.css";
import "./styles/safety.css";

const { choice, bridge } = await createBridge({
  preload: (globalThis as { kiosk?: unknown }).kiosk,
  search: window.location.search,
  baseUrl: document.baseURI,
  dev: import.meta.env.DEV,
});
document.documentElement.dataset.bridge = choice.kind;
if (choice.kind === "browser" && choice.ignored) console.warn(`?bridge=${choice.ignored} is for development builds only; using the kiosk server's API`);

const root = document.getElementById("root");
if (!root) throw new Error("renderer: #root missing from index.html");
createRoot(root).render(
  <StrictMode>
    <KioskApp bridge={bridge} preferredSystem={new URLSearchParams(window.location.search).get("system")} />
  </StrictMode>,
);
