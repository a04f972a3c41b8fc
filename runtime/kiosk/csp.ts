// The kiosk screen's Content Security Policy, shared by `kiosk serve` (HTTP header) and the Electron
// shell (response header). It is the renderer's own meta-tag policy (renderer/index.html) plus what
// only a header can say (frame-ancestors), with connect-src narrowed to 'self' (CSP 3 'self'
// covers the same-origin ws:// progress socket; the meta tag's bare `ws: wss:` would allow any
// host). Both policies apply together, so the effective policy is never weaker than either.
//
// style-src also allows two inline style elements by hash: the bench report's style sheets
// (bench/report/html.ts REPORT_CSS and its trace viewer's, bench/report/trace-html.ts TRACE_CSS).
// The technician screen shows the report in a sandboxed srcdoc iframe (no scripts), which
// inherits this policy; nothing else inline is allowed. A test in bench/ checks that the hashes
// match the report's CSS.
export const BENCH_REPORT_STYLE_HASH = "'sha256-vUo9kXs8t5D8j5reQ1iYJdJOZMvChPjj242dFwsAiPU='";
/** The report's second style element: the trace viewer's (bench/report/trace-html.ts TRACE_CSS). */
export const BENCH_TRACE_STYLE_HASH = "'sha256-vdxPcXsC7piAwHH4neOoLJkuOoK8DHtH2GlZchKGoLQ='";

export const KIOSK_CSP_DIRECTIVES: Readonly<Record<string, string>> = {
  "default-src": "'none'",
  "script-src": "'self'",
  "style-src": `'self' ${BENCH_REPORT_STYLE_HASH} ${BENCH_TRACE_STYLE_HASH}`,
  "img-src": "'self'",
  "font-src": "'self'",
  // Headset speech plays the WAV the kiosk's speech engine rendered from a blob: URL the page made itself.
  "media-src": "blob:",
  "connect-src": "'self'",
  "base-uri": "'none'",
  "form-action": "'none'",
  "object-src": "'none'",
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
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=()",
};
