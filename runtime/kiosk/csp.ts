// The kiosk screen's Content Security Policy, shared by `kiosk serve` (HTTP header) and the Electron
// shell (response header + check of the renderer's meta tag). The renderer is a bundled Vite app:
// scripts and styles come from its own files, pictures may be data: URLs (QR codes), the API and
// the progress WebSocket are same-origin. Nothing else: no inline script, no eval, no frames.
export const KIOSK_CSP_DIRECTIVES: Readonly<Record<string, string>> = {
  "default-src": "'self'",
  "script-src": "'self'",
  "style-src": "'self'",
  "img-src": "'self' data:",
  "font-src": "'self'",
  "connect-src": "'self'",
  "media-src": "'self'",
  "object-src": "'none'",
  "base-uri": "'none'",
  "form-action": "'none'",
  "frame-ancestors": "'none'",
};

export function cspString(directives: Readonly<Record<string, string>> = KIOSK_CSP_DIRECTIVES): string {
  return Object.entries(directives)
    .map(([k, v]) => `${k} ${v}`)
    .join("; ");
}

export const KIOSK_CSP = cspString();

/** Headers every response of the kiosk carries (HTTP server and Electron alike). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": KIOSK_CSP,
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), bluetooth=()",
};
