// Builds the renderer (renderer/dist, relative base so it loads from file:// in Electron and from
// `kiosk serve`). `npx vite --config renderer/vite.config.ts` serves it against the fake bridge;
// set KIOSK_SERVE_URL=http://127.0.0.1:PORT to proxy /api to a running `kiosk serve` instead
// (open the page with ?bridge=http).
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin, type ProxyOptions } from "vite";
import { trimFontCss } from "./styles/trimFontCss.ts";

const root = import.meta.dirname;

/**
 * The dev server injects inline scripts/styles (React refresh preamble, CSS hot reload). Rather
 * than weakening the production CSP, the dev server tags them with a per-start nonce and adds that
 * nonce to the page's CSP meta tag; the built page keeps the strict policy untouched.
 */
function devCspNonce(nonce: string): Plugin {
  return {
    name: "kiosk:dev-csp-nonce",
    apply: "serve",
    transformIndexHtml: {
      order: "post",
      handler: (html) =>
        html.replace(/(script-src|style-src) 'self'/g, (_match, directive: string) => `${directive} 'self' 'nonce-${nonce}'`),
    },
  };
}

/** The shipped fonts without what the kiosk never shows (styles/trimFontCss.ts). */
function fontSubsets(): Plugin {
  return {
    name: "kiosk:font-subsets",
    enforce: "pre",
    transform(code, id) {
      return /@fontsource[\\/].*\.css$/.test(id) ? trimFontCss(code, id) : null;
    },
  };
}

export default defineConfig(({ command }) => {
  const nonce = globalThis.crypto.randomUUID().replace(/-/g, "");
  const serveUrl = process.env.KIOSK_SERVE_URL;
  const proxy: Record<string, ProxyOptions> = serveUrl ? { "/api": { target: serveUrl, ws: true, changeOrigin: true } } : {};
  return {
    root,
    base: "./",
    plugins: [fontSubsets(), react(), devCspNonce(nonce)],
    html: command === "serve" ? { cspNonce: nonce } : {},
    build: {
      outDir: "dist",
      emptyOutDir: true,
      target: "es2022",
      // Maps are written for debugging but not referenced from the bundle, and never served.
      sourcemap: "hidden",
      assetsInlineLimit: 0,
      // One local bundle (React, zod, i18next, xstate): loaded from disk, never over a network.
      chunkSizeWarningLimit: 900,
    },
    server: {
      host: "127.0.0.1",
      port: 5173,
      proxy,
    },
  };
});
