// Input guards of `kiosk serve` (node/server.ts), kept apart so each can be tested alone: whatever a raw
// request carries — an unparsable URL, bad percent-encoding, a rebinding Host name, a progress
// socket without its client id — is a 4xx for that request, never a crash or a 500 (issue 13,
// findings 1 and 14 and the "Also" line). Pure.
import { isIP } from "node:net";

/** The path of a request target, or null when it is not a URL at all ("http://[", "//%"). */
export function requestPathname(url: string | undefined): string | null {
  try {
    return new URL(url ?? "/", "http://kiosk.invalid").pathname;
  } catch {
    return null;
  }
}

/** A request target's query parameter, or null (absent or unparsable). */
export function requestQuery(url: string | undefined, name: string): string | null {
  try {
    return new URL(url ?? "/", "http://kiosk.invalid").searchParams.get(name);
  } catch {
    return null;
  }
}

/** decodeURIComponent that answers null for bad percent-encoding ("%E0%A4%A") instead of throwing. */
export function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

export function isLoopbackName(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Host header without the port ("[::1]:8787" → "[::1]", "Kiosk.Example:80" → "kiosk.example"). */
export function hostName(hostHeader: string | undefined): string {
  if (!hostHeader) return "";
  const host = hostHeader.trim().toLowerCase();
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  return host.replace(/:\d*$/, "");
}

/** An IP address literal (no name to rebind): "192.168.1.20", "[fe80::1]". */
export function isIpLiteral(host: string): boolean {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return isIP(bare) !== 0;
}

/**
 * DNS-rebinding guard. A browser tricked into talking to the kiosk sends the attacker's name in
 * Host, so only names that cannot be rebound are answered: a loopback-bound server answers
 * loopback names only; one bound elsewhere (--host 0.0.0.0) also answers IP literals and the
 * names the operator allowed (--allowed-host).
 */
export function hostAllowed(hostHeader: string | undefined, boundHost: string, allowedHosts: readonly string[] = []): boolean {
  const name = hostName(hostHeader);
  if (name === "") return false;
  if (isLoopbackName(name)) return true;
  if (isLoopbackName(boundHost)) return false;
  return isIpLiteral(name) || allowedHosts.some((h) => h.toLowerCase() === name);
}

/** A progress client's id (the browser bridge picks a random one per page). */
export const PROGRESS_CLIENT_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
export const PROGRESS_CLIENT_HEADER = "x-kiosk-client";
/** Open progress sockets, all clients together, and per client. */
export const MAX_PROGRESS_SOCKETS = 32;
export const MAX_PROGRESS_SOCKETS_PER_CLIENT = 4;

export function progressClientOf(value: unknown): string | null {
  return typeof value === "string" && PROGRESS_CLIENT_PATTERN.test(value) ? value : null;
}

/**
 * Who a request comes from, for per-client limits (unpaid sessions, PIN lockouts): its remote
 * address, and on loopback also the page's client id — screens on the kiosk itself (or behind a
 * local proxy) share 127.0.0.1. From the network the id is not used: anyone can make up ids, not
 * addresses.
 */
export function requestSource(remoteAddress: string | undefined, clientHeader: unknown): string {
  const address = (remoteAddress ?? "").replace(/^::ffff:/i, "");
  if (!isLoopbackName(address)) return address;
  const client = progressClientOf(clientHeader);
  return client === null ? address : `${address} ${client}`;
}

/** Source maps are never served (they publish the source). */
export function isSourceMap(pathname: string): boolean {
  return /\.map$/i.test(pathname);
}

/** One raw HTTP error answer on a socket that is not (or no longer) an HTTP response. */
export function rawHttpError(status: 400 | 403 | 404 | 421 | 503, reason: string): string {
  const text = { 400: "Bad Request", 403: "Forbidden", 404: "Not Found", 421: "Misdirected Request", 503: "Service Unavailable" }[status];
  return `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`;
}
