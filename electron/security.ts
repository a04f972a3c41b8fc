// The kiosk window's security settings, in one place so tests can check every one of them:
// isolated, sandboxed renderer without Node; a strict CSP on every response; no navigation away
// from the app, no frames but srcdoc ones, no new windows, no webviews; every permission request denied (only the audio-output check passes); devtools off in
// kiosk mode. Functions take the Electron objects they configure (tests pass fakes).
import type { BrowserWindowConstructorOptions, Session, WebContents, WebPreferences } from "electron";
import { KIOSK_CSP, SECURITY_HEADERS } from "../runtime/kiosk/csp.ts";

/** The renderer is served from this privileged custom scheme (standard + secure), never file://. */
export const APP_SCHEME = "kiosk";
export const APP_HOST = "app";
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_URL = `${APP_ORIGIN}/index.html`;

export function kioskWebPreferences(preload: string, options: { devTools: boolean }): WebPreferences {
  return {
    preload,
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
    devTools: options.devTools,
  };
}

export function kioskWindowOptions(preload: string, options: { kiosk: boolean; devTools: boolean }): BrowserWindowConstructorOptions {
  return {
    show: false,
    kiosk: options.kiosk,
    fullscreen: options.kiosk,
    frame: !options.kiosk,
    autoHideMenuBar: true,
    backgroundColor: "#000000",
    title: "Metro kiosk",
    webPreferences: kioskWebPreferences(preload, { devTools: options.devTools && !options.kiosk }),
  };
}

/** A srcdoc iframe's URL (its document comes from the parent's markup, not from a fetch). */
export const SRCDOC_URL = "about:srcdoc";

/** Is this URL part of the app (same scheme and host)? */
export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST;
  } catch {
    return false;
  }
}

type HeadersReceivedDetails = { responseHeaders?: Record<string, string[] | string> };

/** Response headers with the kiosk's CSP and security headers forced in (any existing CSP replaced). */
export function withSecurityHeaders(headers: Record<string, string[] | string> | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const ours = new Set(Object.keys(SECURITY_HEADERS).map((k) => k.toLowerCase()));
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (!ours.has(k.toLowerCase())) out[k] = Array.isArray(v) ? v : [v];
  }
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) out[k] = [v];
  return out;
}

/**
 * Permission checks the app's own page passes: choosing an audio output. Chromium shows the
 * outputs' labels (how headset mode finds the headset) and lets setSinkId pick one only when the
 * page passes the audio check; the microphone itself is never granted (every request is denied).
 */
export function allowedPermissionCheck(permission: string, requestingOrigin: string, details: { mediaType?: string }): boolean {
  if (!isAppUrl(requestingOrigin)) return false;
  return permission === "speaker-selection" || (permission === "media" && details.mediaType === "audio");
}

/** CSP header on every response, every permission request refused (camera, microphone, geolocation, …), no devices. */
export function hardenSession(session: Pick<Session, "webRequest" | "setPermissionRequestHandler" | "setPermissionCheckHandler" | "setDevicePermissionHandler">): void {
  session.webRequest.onHeadersReceived((details: HeadersReceivedDetails, callback: (response: { responseHeaders: Record<string, string[]> }) => void) => {
    callback({ responseHeaders: withSecurityHeaders(details.responseHeaders) });
  });
  session.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler((_webContents, permission, requestingOrigin, details) => allowedPermissionCheck(permission, requestingOrigin, details as { mediaType?: string }));
  session.setDevicePermissionHandler(() => false);
}

type LockableContents = Pick<WebContents, "on" | "setWindowOpenHandler" | "closeDevTools">;

/** No navigation outside the app, no new windows, no webviews, and devtools closed when not allowed. */
export function lockWebContents(contents: LockableContents, options: { devTools: boolean }): void {
  const block = (event: { preventDefault(): void }, url: string): void => {
    if (!isAppUrl(url)) event.preventDefault();
  };
  contents.on("will-navigate", block);
  contents.on("will-redirect", block);
  contents.on("will-frame-navigate", (event: { preventDefault(): void; url: string; isMainFrame: boolean }) => {
    // The only subframe: the technician screen's bench report, a sandboxed srcdoc iframe (no
    // scripts, the kiosk's CSP inherited). Nothing loads from a URL into a frame.
    if (event.isMainFrame ? !isAppUrl(event.url) : event.url !== SRCDOC_URL) event.preventDefault();
  });
  contents.on("will-attach-webview", (event: { preventDefault(): void }) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: "deny" }));
  if (!options.devTools) contents.on("devtools-opened", () => contents.closeDevTools());
}

/** The CSP the renderer's index.html must also carry in a meta tag (defence in depth). */
export function metaCspOf(html: string): string | undefined {
  const m = /<meta\s+http-equiv=(["'])Content-Security-Policy\1\s+content=(["'])(.*?)\2/is.exec(html);
  return m?.[3];
}

export { KIOSK_CSP };
