// The back office's web page for the fleet (issue 18): GET / lists the kiosks (last heartbeat,
// stale badge, sales today, replication lag, framebook and alert versions, latest bench Tier 1,
// model state), GET /v1/kiosks the same as JSON, both behind a login (POST /login, POST /logout).
// Server-rendered, every value escaped, CSP default-src 'none' with the stylesheet from 'self' and
// no scripts. CSRF: the session cookie is SameSite=Strict and every POST must carry an Origin (or
// Referer) of this very host — cross-site forms are refused with 403.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Heartbeat } from "../../runtime/fleet/protocol.ts";
import { DUMMY_PASSWORD_HASH, LoginLimiter, Sessions, verifyPassword } from "./auth.ts";
import type { BackOfficeStore, KioskOverview } from "./store.ts";

export const DEFAULT_STALE_AFTER_S = 120;
/**
 * The page's size budget: kiosks per page, systems and alerts (over all its systems) shown per kiosk, characters per value.
 * A heartbeat is the kiosk's own words, so what it reports is cut to these before it is rendered.
 */
export const KIOSKS_PER_PAGE = 50;
const MAX_SYSTEMS_SHOWN = 16;
const MAX_ALERTS_SHOWN = 10;
const MAX_VALUE_CHARS = 80;
const COOKIE = "bo_session";
const CSP = "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export interface KioskView {
  kioskId: string;
  /** The last heartbeat, else the last batch. */
  lastContactAt: string;
  lastHeartbeatAt: string | null;
  silentS: number;
  stale: boolean;
  pending: number;
  oldestPendingAt: string | null;
  salesToday: KioskOverview["salesToday"];
  softwareVersion: string | null;
  /** Cut to the page's budget (MAX_SYSTEMS_SHOWN, MAX_ALERTS_SHOWN in all, MAX_VALUE_CHARS per value). */
  systems: Heartbeat["systems"];
  /** Alerts in force the heartbeat listed beyond those shown. */
  alertsNotShown: number;
  model: Heartbeat["model"] | null;
  bench: Heartbeat["bench"];
}

/** A value cut to `max` characters (an ellipsis says so). */
export function clip(value: string, max = MAX_VALUE_CHARS): string {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

function shownSystems(systems: Heartbeat["systems"]): { systems: Heartbeat["systems"]; alertsNotShown: number } {
  const total = systems.reduce((n, s) => n + s.alerts.length, 0);
  let room = MAX_ALERTS_SHOWN;
  const shown = systems.slice(0, MAX_SYSTEMS_SHOWN).map((s) => {
    const alerts = s.alerts.slice(0, room).map((a) => ({ id: clip(a.id), updatedAt: clip(a.updatedAt) }));
    room -= alerts.length;
    return { system: clip(s.system), framebookVersion: s.framebookVersion === null ? null : clip(s.framebookVersion), alerts };
  });
  return { systems: shown, alertsNotShown: total - shown.reduce((n, s) => n + s.alerts.length, 0) };
}

/** Stale: no heartbeat (nor batch) for more than `staleAfterS` seconds at `now`. */
export function kioskViews(overview: readonly KioskOverview[], now: Date, staleAfterS: number): KioskView[] {
  return overview.map((k) => {
    const last = k.lastHeartbeatAt && k.lastHeartbeatAt > k.lastBatchAt ? k.lastHeartbeatAt : k.lastBatchAt;
    const silentS = Math.max(0, Math.round((now.getTime() - last.getTime()) / 1000));
    return {
      kioskId: k.kioskId,
      lastContactAt: last.toISOString(),
      lastHeartbeatAt: k.lastHeartbeatAt?.toISOString() ?? null,
      silentS,
      stale: silentS > staleAfterS,
      pending: k.pending,
      oldestPendingAt: k.oldestPendingAt?.toISOString() ?? null,
      salesToday: k.salesToday,
      softwareVersion: k.heartbeat ? clip(k.heartbeat.softwareVersion) : null,
      ...shownSystems(k.heartbeat?.systems ?? []),
      model: k.heartbeat ? { assistant: k.heartbeat.model.assistant, state: k.heartbeat.model.state === null ? null : clip(k.heartbeat.model.state) } : null,
      bench: k.heartbeat?.bench ? { ...k.heartbeat.bench, policy: clip(k.heartbeat.bench.policy), finishedAt: k.heartbeat.bench.finishedAt === null ? null : clip(k.heartbeat.bench.finishedAt) } : null,
    };
  });
}

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

export function relativeTime(seconds: number): string {
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86_400)} d ago`;
}

/** Minor units as a decimal amount (2 decimals) with the currency code. */
export function money(minor: number, currency: string): string {
  return `${(minor / 100).toFixed(2)} ${currency}`;
}

const page = (title: string, body: string, refresh: boolean): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
  `${refresh ? '<meta http-equiv="refresh" content="30">' : ""}<meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<link rel="stylesheet" href="/style.css"></head><body>${body}</body></html>`;

/** Which page of the fleet is shown, of how many, and the fleet-wide counts. */
export interface FleetPaging {
  page: number;
  pages: number;
  kiosks: number;
  stale: number;
}

export function renderFleetPage(kiosks: readonly KioskView[], context: { user: string; now: Date; timeZone: string; staleAfterS: number; paging?: FleetPaging }): string {
  const rows = kiosks.map((k) => {
    const sales = k.salesToday.length === 0 ? "0" : k.salesToday.map((s) => `${s.sales} · ${escapeHtml(money(s.totalMinor, s.currency))}${s.voided > 0 ? ` <span class="muted">(${s.voided} voided)</span>` : ""}`).join("<br>");
    const framebooks = k.systems.map((s) => `${escapeHtml(s.system)}: ${escapeHtml(s.framebookVersion ?? "—")}`).join("<br>") || "—";
    const alerts =
      [
        ...k.systems.flatMap((s) => s.alerts.map((a) => `${escapeHtml(s.system)}/${escapeHtml(a.id)} <span class="muted">${escapeHtml(a.updatedAt)}</span>`)),
        ...(k.alertsNotShown > 0 ? [`<span class="muted">and ${escapeHtml(k.alertsNotShown)} more</span>`] : []),
      ].join("<br>") || "none";
    const bench = k.bench ? `${k.bench.tier1Pct === null ? "—" : `${escapeHtml(k.bench.tier1Pct.toFixed(1))} %`} <span class="muted">run ${escapeHtml(k.bench.runId)}, ${escapeHtml(k.bench.policy)}</span>` : "none";
    const model = k.model ? `${escapeHtml(k.model.assistant)}${k.model.state ? ` <span class="muted">(${escapeHtml(k.model.state)})</span>` : ""}` : "—";
    const lag = k.pending === 0 ? "up to date" : `${escapeHtml(k.pending)} pending${k.oldestPendingAt ? ` since <time>${escapeHtml(k.oldestPendingAt)}</time>` : ""}`;
    return (
      `<tr class="${k.stale ? "stale" : "ok"}"><th scope="row">${escapeHtml(k.kioskId)}${k.softwareVersion ? `<br><span class="muted">v${escapeHtml(k.softwareVersion)}</span>` : ""}</th>` +
      `<td>${k.stale ? '<span class="badge stale">STALE</span>' : '<span class="badge ok">online</span>'}</td>` +
      `<td>${escapeHtml(relativeTime(k.silentS))}<br><time class="muted">${escapeHtml(k.lastContactAt)}</time>${k.lastHeartbeatAt ? "" : '<br><span class="muted">no heartbeat yet</span>'}</td>` +
      `<td class="num">${sales}</td><td>${lag}</td><td>${framebooks}</td><td>${alerts}</td><td>${bench}</td><td>${model}</td></tr>`
    );
  });
  const paging = context.paging ?? { page: 1, pages: 1, kiosks: kiosks.length, stale: kiosks.filter((k) => k.stale).length };
  const nav =
    paging.pages <= 1
      ? ""
      : `<nav class="pages">${paging.page > 1 ? `<a href="/?page=${paging.page - 1}">← previous</a> ` : ""}page ${escapeHtml(paging.page)} of ${escapeHtml(paging.pages)}${paging.page < paging.pages ? ` <a href="/?page=${paging.page + 1}">next →</a>` : ""}</nav>`;
  const body =
    `<header><h1>Fleet</h1><form method="post" action="/logout"><span class="muted">${escapeHtml(context.user)}</span> <button>Log out</button></form></header>` +
    `<p>${escapeHtml(paging.kiosks)} kiosk(s), <strong>${escapeHtml(paging.stale)} stale</strong> (silent over ${escapeHtml(context.staleAfterS)} s) · sales today in ${escapeHtml(context.timeZone)} · as of <time>${escapeHtml(context.now.toISOString())}</time></p>` +
    (kiosks.length === 0
      ? "<p>No kiosk has reported yet.</p>"
      : `<table><thead><tr><th>Kiosk</th><th>State</th><th>Last heartbeat</th><th>Sales today (not voided)</th><th>Replication lag</th><th>Framebooks</th><th>Service alerts</th><th>Bench Tier 1</th><th>Model</th></tr></thead><tbody>${rows.join("")}</tbody></table>${nav}`);
  return page("Fleet — back office", body, true);
}

export function renderLoginPage(error: string | null): string {
  return page(
    "Log in — back office",
    `<main class="login"><h1>Back office</h1>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}` +
      `<form method="post" action="/login"><label>User <input name="user" autocomplete="username" required></label>` +
      `<label>Password <input name="password" type="password" autocomplete="current-password" required></label><button>Log in</button></form></main>`,
    false,
  );
}

export const STYLESHEET = `body{font:15px/1.4 system-ui,sans-serif;margin:1.5rem;color:#1b1f24;background:#f6f7f9}
header{display:flex;justify-content:space-between;align-items:center}h1{margin:0 0 .5rem}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border:1px solid #d5d9de;padding:.45rem .6rem;text-align:left;vertical-align:top}
thead th{background:#e9ecf0}th[scope=row],time{white-space:nowrap}tr.stale{background:#fff3f0}.num{text-align:right}.muted{color:#66707a;font-size:.85em}
.badge{display:inline-block;padding:.1rem .5rem;border-radius:.6rem;font-weight:600;font-size:.8em}.badge.ok{background:#d8f3dc;color:#1b5e20}.badge.stale{background:#c62828;color:#fff}
.login{max-width:22rem;margin:4rem auto;background:#fff;padding:1.5rem;border:1px solid #d5d9de}.login label{display:block;margin:.6rem 0}.login input{width:100%;box-sizing:border-box;padding:.4rem}
.error{color:#b71c1c;font-weight:600}button{padding:.35rem .9rem}.pages{margin:.8rem 0}`;

export interface FleetPagesOptions {
  store: Pick<BackOfficeStore, "fleetOverview" | "fleetCounts" | "userPasswordHash">;
  staleAfterS?: number;
  timeZone?: string;
  clock?: () => Date;
  /** Failed logins: at most `limit` per address and per user a minute; a failed answer is held `baseDelayMs`, doubling per recent failure. */
  logins?: { limit?: number; baseDelayMs?: number; maxDelayMs?: number };
  /** The back office is reached over HTTPS (a TLS reverse proxy in front): the session cookie is `Secure`. */
  secureCookies?: boolean;
}

/** The paths a person's browser uses (login, fleet page): the ones the Host allow-list guards. */
const PAGE_PATHS = new Set(["/", "/login", "/logout", "/style.css", "/v1/kiosks"]);

export function isPagePath(pathname: string): boolean {
  return PAGE_PATHS.has(pathname);
}

function send(res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string | string[]> = {}): void {
  res.writeHead(status, { "content-type": type, "cache-control": "no-store", "content-security-policy": CSP, "x-content-type-options": "nosniff", "referrer-policy": "same-origin", "content-length": Buffer.byteLength(body), ...extra });
  res.end(body);
}

function cookie(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return null;
}

/** A POST from a page of this very host (Origin, else Referer); anything else is a cross-site request. */
function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin ?? req.headers.referer;
  if (!origin || !req.headers.host) return false;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  let text = "";
  for await (const chunk of req as AsyncIterable<Buffer>) {
    text += chunk.toString("utf8");
    if (text.length > 8192) throw new Error("form too large");
  }
  return new URLSearchParams(text);
}

/** The page routes; `handle` answers true when it served the request. */
export function fleetPages(options: FleetPagesOptions): { handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> } {
  const clock = options.clock ?? (() => new Date());
  const now = (): number => clock().getTime();
  const sessions = new Sessions(now);
  const limiter = new LoginLimiter(now, options.logins ?? {});
  const staleAfterS = options.staleAfterS ?? DEFAULT_STALE_AFTER_S;
  const timeZone = options.timeZone ?? "UTC";
  const setCookie = (value: string, maxAge: number): string => `${COOKIE}=${value}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${maxAge}${options.secureCookies ? "; Secure" : ""}`;

  return {
    async handle(req, res, pathname) {
      const method = req.method ?? "GET";
      if (pathname === "/style.css" && method === "GET") {
        send(res, 200, "text/css; charset=utf-8", STYLESHEET);
        return true;
      }
      if (pathname === "/login" && method === "GET") {
        send(res, 200, "text/html; charset=utf-8", renderLoginPage(null));
        return true;
      }
      if (pathname === "/login" && method === "POST") {
        if (!sameOrigin(req)) {
          send(res, 403, "text/html; charset=utf-8", renderLoginPage("This form must be sent from the back office's own page."));
          return true;
        }
        const form = await formBody(req);
        const user = form.get("user") ?? "";
        // Counted before any check runs, per address and per user (an attacker rotating addresses still hits the user's limit).
        const gate = limiter.begin([`address ${req.socket.remoteAddress ?? "?"}`, `user ${user.trim().toLowerCase()}`]);
        if (!gate.ok) {
          send(res, 429, "text/html; charset=utf-8", renderLoginPage("Too many failed logins: wait a minute and try again."), { "retry-after": String(gate.retryAfterS) });
          return true;
        }
        const stored = user ? await options.store.userPasswordHash(user) : null;
        // The same scrypt work whether or not the user exists.
        const ok = (await verifyPassword(form.get("password") ?? "", stored ?? DUMMY_PASSWORD_HASH)) && stored !== null;
        if (!ok) {
          await new Promise((resolve) => setTimeout(resolve, gate.attempt.failureDelayMs()));
          send(res, 401, "text/html; charset=utf-8", renderLoginPage("Wrong user name or password."));
          return true;
        }
        gate.attempt.succeed();
        send(res, 302, "text/plain; charset=utf-8", "", { location: "/", "set-cookie": setCookie(sessions.create(user), 30 * 60) });
        return true;
      }
      if (pathname === "/logout" && method === "POST") {
        if (!sameOrigin(req)) {
          send(res, 403, "text/plain; charset=utf-8", "cross-site logout refused");
          return true;
        }
        sessions.end(cookie(req, COOKIE));
        send(res, 302, "text/plain; charset=utf-8", "", { location: "/login", "set-cookie": setCookie("", 0) });
        return true;
      }
      const isPage = pathname === "/" && method === "GET";
      const isJson = pathname === "/v1/kiosks" && method === "GET";
      if (!isPage && !isJson) return false;
      const user = sessions.touch(cookie(req, COOKIE));
      if (user === null) {
        if (isPage) send(res, 302, "text/plain; charset=utf-8", "", { location: "/login" });
        else send(res, 401, "application/json; charset=utf-8", JSON.stringify({ error: "log in first (POST /login)" }));
        return true;
      }
      const at = clock();
      const counts = await options.store.fleetCounts(at, staleAfterS);
      const pages = Math.max(1, Math.ceil(counts.kiosks / KIOSKS_PER_PAGE));
      const asked = Number(new URL(req.url ?? "/", "http://backoffice").searchParams.get("page") ?? "1");
      const page = Number.isInteger(asked) ? Math.min(Math.max(asked, 1), pages) : 1;
      const overview = await options.store.fleetOverview(at, timeZone, { offset: (page - 1) * KIOSKS_PER_PAGE, limit: KIOSKS_PER_PAGE });
      const kiosks = kioskViews(overview, at, staleAfterS);
      const paging: FleetPaging = { page, pages, ...counts };
      if (isPage) send(res, 200, "text/html; charset=utf-8", renderFleetPage(kiosks, { user, now: at, timeZone, staleAfterS, paging }));
      else send(res, 200, "application/json; charset=utf-8", JSON.stringify({ now: at.toISOString(), staleAfterS, timeZone, ...paging, kiosks }));
      return true;
    },
  };
}
