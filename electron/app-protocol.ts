// Serving the built renderer to the kiosk window from the privileged `kiosk://app/` scheme (not
// file://): same-origin rules and the CSP's 'self' then mean exactly the app's own files.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { SECURITY_HEADERS } from "../runtime/kiosk/csp.ts";
import { APP_HOST, APP_SCHEME } from "./security.ts";
import { contentTypeOf } from "../runtime/kiosk/node/content-types.ts";
import { isSourceMap } from "../runtime/kiosk/node/http-guards.ts";


/** The file a kiosk://app/… URL maps to inside the renderer folder, or null (wrong host, outside, missing). */
export function rendererFileFor(rendererDir: string, url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(u.pathname);
  } catch {
    return null;
  }
  if (pathname.includes("\0") || isSourceMap(pathname)) return null;
  const root = path.resolve(rendererDir);
  let file = path.resolve(root, `.${path.posix.normalize(pathname)}`);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, "index.html");
  if (existsSync(file) && statSync(file).isFile()) return file;
  // Client-side routes (no extension) load the app.
  if (path.extname(pathname) === "") {
    const index = path.join(root, "index.html");
    return existsSync(index) ? index : null;
  }
  return null;
}

/** The protocol handler: the file with its type and the kiosk's security headers, or 404. */
export function rendererResponse(rendererDir: string, url: string): Response {
  const file = rendererFileFor(rendererDir, url);
  const headers = new Headers(SECURITY_HEADERS);
  if (!file) {
    headers.set("Content-Type", "text/plain; charset=utf-8");
    return new Response("not found", { status: 404, headers });
  }
  headers.set("Content-Type", contentTypeOf(file));
  return new Response(readFileSync(file), { status: 200, headers });
}
