import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { KIOSK_CSP, KIOSK_CSP_DIRECTIVES } from "../runtime/kiosk/csp.ts";
import { REPO_ROOT } from "../test/paths.ts";
import { APP_URL, hardenSession, isAppUrl, kioskWindowOptions, lockWebContents, metaCspOf, withSecurityHeaders } from "./security.ts";

type Listener = (...args: never[]) => unknown;

function fakeContents() {
  const listeners = new Map<string, Listener>();
  let openHandler: (() => { action: string }) | undefined;
  const contents = {
    on: vi.fn((event: string, listener: Listener) => {
      listeners.set(event, listener);
      return contents;
    }),
    setWindowOpenHandler: vi.fn((handler: () => { action: string }) => {
      openHandler = handler;
    }),
    closeDevTools: vi.fn(),
  };
  return {
    contents,
    fire(event: string, ...args: unknown[]) {
      const listener = listeners.get(event);
      if (!listener) throw new Error(`no ${event} listener`);
      return (listener as (...a: unknown[]) => unknown)(...args);
    },
    has: (event: string) => listeners.has(event),
    open: () => openHandler?.(),
  };
}

function navigationEvent(url?: string, isMainFrame = true) {
  return { preventDefault: vi.fn(), url, isMainFrame };
}

describe("kiosk window", () => {
  it("is isolated, sandboxed, without Node, with web security, full-screen kiosk by default", () => {
    const options = kioskWindowOptions("/app/preload.cjs", { kiosk: true, devTools: true });
    expect(options).toMatchObject({ kiosk: true, fullscreen: true, frame: false, show: false });
    expect(options.webPreferences).toEqual({
      preload: "/app/preload.cjs",
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      safeDialogs: true,
      // Devtools never in kiosk mode, even when asked for.
      devTools: false,
    });
  });

  it("can run windowed for development (devtools only then)", () => {
    const options = kioskWindowOptions("/p.cjs", { kiosk: false, devTools: true });
    expect(options).toMatchObject({ kiosk: false, fullscreen: false, frame: true });
    expect(options.webPreferences?.devTools).toBe(true);
    expect(options.webPreferences?.sandbox).toBe(true);
  });
});

describe("session hardening", () => {
  function fakeSession() {
    const handlers: Record<string, Listener> = {};
    const session = {
      webRequest: { onHeadersReceived: vi.fn((l: Listener) => (handlers.headers = l)) },
      setPermissionRequestHandler: vi.fn((l: Listener) => (handlers.request = l)),
      setPermissionCheckHandler: vi.fn((l: Listener) => (handlers.check = l)),
      setDevicePermissionHandler: vi.fn((l: Listener) => (handlers.device = l)),
    };
    hardenSession(session as never);
    return handlers as Record<string, (...args: unknown[]) => unknown>;
  }

  it("forces the kiosk CSP and security headers onto every response (replacing any other CSP)", () => {
    const handlers = fakeSession();
    const callback = vi.fn();
    handlers.headers!(
      { url: "kiosk://app/index.html", responseHeaders: { "content-security-policy": ["default-src *"], "Content-Type": ["text/html"], "X-Custom": "1" } },
      callback,
    );
    const headers = callback.mock.calls[0]![0].responseHeaders as Record<string, string[]>;
    expect(headers["Content-Security-Policy"]).toEqual([KIOSK_CSP]);
    expect(headers["content-security-policy"]).toBeUndefined();
    expect(headers["X-Content-Type-Options"]).toEqual(["nosniff"]);
    expect(headers["Content-Type"]).toEqual(["text/html"]);
    expect(headers["X-Custom"]).toEqual(["1"]);
    expect(KIOSK_CSP).toMatch(/default-src 'none'/);
    // Scripts from the app only: no WebAssembly (no speech synthesiser ships in the page), nothing eval'd.
    expect(KIOSK_CSP).toMatch(/script-src 'self'(;|$)/);
    expect(KIOSK_CSP).toMatch(/object-src 'none'/);
    expect(KIOSK_CSP).toMatch(/frame-ancestors 'none'/);
    expect(KIOSK_CSP).not.toMatch(/unsafe-(inline|eval)/);
    expect(withSecurityHeaders(undefined)["X-Frame-Options"]).toEqual(["DENY"]);
  });

  it("denies every permission request and device, and every check but choosing an audio output from the app", () => {
    const handlers = fakeSession();
    for (const permission of ["media", "geolocation", "notifications", "clipboard-read", "hid", "serial", "speaker-selection"]) {
      const callback = vi.fn();
      handlers.request!({}, permission, callback, { mediaTypes: ["audio"] });
      expect(callback).toHaveBeenCalledWith(false);
    }
    for (const permission of ["media", "geolocation", "notifications", "clipboard-read", "hid", "serial"]) expect(handlers.check!({}, permission, "kiosk://app", {}), permission).toBe(false);
    expect(handlers.device!({})).toBe(false);
    // Headset mode: the outputs' labels and setSinkId (the audio check, the speaker-selection check) — from the app only.
    expect(handlers.check!({}, "media", "kiosk://app", { mediaType: "audio" })).toBe(true);
    expect(handlers.check!({}, "speaker-selection", "kiosk://app/", {})).toBe(true);
    expect(handlers.check!({}, "media", "kiosk://app", { mediaType: "video" })).toBe(false);
    expect(handlers.check!({}, "media", "kiosk://app", { mediaType: "unknown" })).toBe(false);
    for (const origin of ["https://example.com", "kiosk://other", "file://", ""]) {
      expect(handlers.check!({}, "media", origin, { mediaType: "audio" }), origin).toBe(false);
      expect(handlers.check!({}, "speaker-selection", origin, {}), origin).toBe(false);
    }
  });
});

describe("web contents lock-down", () => {
  it("blocks navigation and redirects away from the app, allows the app's own pages", () => {
    const f = fakeContents();
    lockWebContents(f.contents as never, { devTools: false });
    for (const url of ["https://example.com/", "file:///etc/passwd", "kiosk://other/index.html", "javascript:alert(1)", "not a url"]) {
      const e = navigationEvent();
      f.fire("will-navigate", e, url);
      expect(e.preventDefault, url).toHaveBeenCalled();
      const r = navigationEvent();
      f.fire("will-redirect", r, url);
      expect(r.preventDefault, url).toHaveBeenCalled();
    }
    const ok = navigationEvent();
    f.fire("will-navigate", ok, APP_URL);
    expect(ok.preventDefault).not.toHaveBeenCalled();
    const sub = navigationEvent(APP_URL, false);
    f.fire("will-frame-navigate", sub);
    expect(sub.preventDefault).toHaveBeenCalled();
    // The technician's sandboxed report frame (srcdoc) may load; a URL in a frame may not.
    const srcdoc = navigationEvent("about:srcdoc", false);
    f.fire("will-frame-navigate", srcdoc);
    expect(srcdoc.preventDefault).not.toHaveBeenCalled();
    for (const url of ["about:blank", "https://example.com/", "data:text/html,x", "javascript:alert(1)"]) {
      const frame = navigationEvent(url, false);
      f.fire("will-frame-navigate", frame);
      expect(frame.preventDefault, url).toHaveBeenCalled();
    }
    const mainSrcdoc = navigationEvent("about:srcdoc", true);
    f.fire("will-frame-navigate", mainSrcdoc);
    expect(mainSrcdoc.preventDefault).toHaveBeenCalled();
  });

  it("denies window.open and webviews, and closes devtools when they are not allowed", () => {
    const f = fakeContents();
    lockWebContents(f.contents as never, { devTools: false });
    expect(f.open()).toEqual({ action: "deny" });
    const webview = navigationEvent();
    f.fire("will-attach-webview", webview);
    expect(webview.preventDefault).toHaveBeenCalled();
    f.fire("devtools-opened");
    expect(f.contents.closeDevTools).toHaveBeenCalled();

    const dev = fakeContents();
    lockWebContents(dev.contents as never, { devTools: true });
    expect(dev.has("devtools-opened")).toBe(false);
  });

  it("recognises app URLs and reads a meta CSP", () => {
    expect(isAppUrl("kiosk://app/index.html")).toBe(true);
    expect(isAppUrl("kiosk://app.evil/index.html")).toBe(false);
    expect(isAppUrl("http://app/")).toBe(false);
    expect(metaCspOf(`<meta http-equiv="Content-Security-Policy" content="default-src 'self'">`)).toBe("default-src 'self'");
  });

  const rendererHtml = path.join(REPO_ROOT, "renderer", "index.html");
  it.skipIf(!existsSync(rendererHtml))("is never weaker than the renderer's own meta CSP (renderer/index.html)", () => {
    const meta = metaCspOf(readFileSync(rendererHtml, "utf8"));
    expect(meta).toBeDefined();
    for (const part of meta!.split(";").map((p) => p.trim()).filter(Boolean)) {
      const [directive, ...sources] = part.split(/\s+/);
      const ours = KIOSK_CSP_DIRECTIVES[directive!];
      expect(ours, directive).toBeDefined();
      // Every source our header allows, the page allows too.
      for (const source of ours!.split(/\s+/)) expect(sources, `${directive} ${source}`).toContain(source);
    }
  });
});
