// The operator console behind the operator PIN: operator sessions (login with the operator's name
// and the kiosk PIN, tokens that expire when idle), framebook hot-swap (status, check = validate +
// diff, apply, rollback; the audit log records who did it and when) and the technician's bench
// (delegated to a TechnicianBench, which lives in bench/). `kiosk serve` and the Electron IPC are
// thin validating adapters over this class: it receives requests already parsed by the bridge's
// zod schemas (OPERATOR_METHODS).
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import { formatPath } from "../../tools/data/errors.ts";
import type { SystemId } from "../../tools/data/schemas.ts";
import { FramebookRejectedError, type AuditEntry, type FramebookStore } from "../framebook/store.ts";
import type { FramebookChange, FramebookIssue } from "../framebook/validate.ts";
import { farePolicyLines } from "../framebook/policy-reading.ts";
import {
  OPERATOR_METHODS,
  type BenchExport,
  type BenchJob,
  type BenchPolicyName,
  type BenchReport,
  type BenchSelection,
  type BenchStatus,
  type FramebookAuditEntry,
  type FramebookChangeView,
  type FramebookIssueView,
  type LatencyProbeResult,
  type OperatorFailureCode,
  type OperatorMethod,
  type OperatorResult,
  type TechnicianInfo,
} from "../kiosk/bridge.ts";
import type { z } from "zod";
import { LOCAL_PIN_SOURCE, type PinGate } from "./pin.ts";
import type { OperatorLive } from "./live.ts";

/** An operator call that cannot be served (→ HTTP status / IPC failure by code). */
export class OperatorError extends Error {
  override name = "OperatorError";
  constructor(
    readonly code: OperatorFailureCode,
    message: string,
  ) {
    super(message);
  }
}

/** A parsed (validated) request of one operator method. */
export type ParsedOperatorRequest<M extends OperatorMethod> = z.output<(typeof OPERATOR_METHODS)[M]["request"]>;

/** What the HTTP server and the IPC handlers call: one function per operator method. */
export type OperatorBackend = { [M in OperatorMethod]: (request: ParsedOperatorRequest<M>) => OperatorResult<M> | Promise<OperatorResult<M>> };

/** The technician's bench (implemented in bench/technician.ts). Throws OperatorError for refusals. */
export interface TechnicianBench {
  info(): TechnicianInfo;
  start(request: { policy: BenchPolicyName; selection: BenchSelection; operator: string }): BenchJob;
  status(): BenchStatus;
  stop(): BenchStatus;
  report(runId: number): BenchReport;
  exportRun(runId: number, format: "summary" | "reference", system?: SystemId): BenchExport;
  latencyProbe(): Promise<LatencyProbeResult>;
}

export interface OperatorConsoleOptions {
  framebooks: FramebookStore;
  pin: PinGate;
  /** The systems this kiosk serves (framebook requests for others are refused). */
  systems: readonly SystemId[];
  /** Null: this kiosk has no bench (the technician calls answer "unavailable"). */
  bench?: TechnicianBench | null;
  /** Service alerts and the session audit (runtime/operator/live.ts); null: "unavailable". */
  live?: OperatorLive | null;
  /** An operator session ends after this long without a call (default 10 minutes). */
  idleTimeoutMs?: number;
  /** Monotonic milliseconds. */
  now?: () => number;
  log?: (message: string) => void;
}

interface OperatorSession {
  operator: string;
  lastSeen: number;
}

export const DEFAULT_OPERATOR_IDLE_MS = 10 * 60_000;
const MAX_SESSIONS = 8;

const versionOf = (text: string): string => createHash("sha256").update(text).digest("hex").slice(0, 12);

function issueView(issue: FramebookIssue): FramebookIssueView {
  return {
    severity: issue.severity,
    message: issue.message,
    path: formatPath(issue.path),
    line: issue.line ?? null,
    column: issue.line !== undefined ? (issue.column ?? 1) : null,
  };
}

function changeView(change: FramebookChange): FramebookChangeView {
  const json = (v: unknown): string | null => (v === undefined ? null : JSON.stringify(v));
  return { path: change.path, before: json(change.before), after: json(change.after) };
}

function auditView(entry: AuditEntry): FramebookAuditEntry {
  return { at: entry.at, who: entry.who, system: entry.system, action: entry.action, version: entry.version, previous: entry.previous, ...(entry.fare_override ? { fare_override: entry.fare_override } : {}) };
}

export class OperatorConsole implements OperatorBackend {
  private readonly sessions = new Map<string, OperatorSession>();
  private readonly idleTimeoutMs: number;
  private readonly now: () => number;
  private readonly log: (message: string) => void;

  constructor(private readonly options: OperatorConsoleOptions) {
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_OPERATOR_IDLE_MS;
    this.now = options.now ?? (() => performance.now());
    this.log = options.log ?? ((m) => console.error(`kiosk operator: ${m}`));
  }

  /** The operator of a live session (refreshing its idle timer), or OperatorError("unauthorized"). */
  private operatorOf(token: string): string {
    const session = this.sessions.get(token);
    if (!session || this.now() - session.lastSeen > this.idleTimeoutMs) {
      this.sessions.delete(token);
      throw new OperatorError("unauthorized", "The operator session has ended. Please log in again.");
    }
    session.lastSeen = this.now();
    return session.operator;
  }

  private requireSystem(system: SystemId): SystemId {
    if (!this.options.systems.includes(system)) throw new OperatorError("rejected", `This kiosk does not serve '${system}'.`);
    return system;
  }

  private live(): OperatorLive {
    if (!this.options.live) throw new OperatorError("unavailable", "This kiosk keeps no service alerts or session audit.");
    return this.options.live;
  }

  private bench(): TechnicianBench {
    if (!this.options.bench) throw new OperatorError("unavailable", "This kiosk has no on-device bench.");
    return this.options.bench;
  }

  // --- sessions --------------------------------------------------------------------------------

  /** `source`: where the PIN was typed (the adapters pass it): wrong PINs lock out that source only. */
  async login(request: ParsedOperatorRequest<"login">, source: string = LOCAL_PIN_SOURCE): Promise<OperatorResult<"login">> {
    const check = await this.options.pin.check(request.pin, source);
    if (!check.ok) {
      this.log(`operator login refused for '${request.operator}' (${check.reason}) from ${source}`);
      return check;
    }
    for (const [token, s] of this.sessions) if (this.now() - s.lastSeen > this.idleTimeoutMs) this.sessions.delete(token);
    while (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
    const token = randomBytes(32).toString("base64url");
    this.sessions.set(token, { operator: request.operator, lastSeen: this.now() });
    this.log(`operator '${request.operator}' logged in from ${source}`);
    return { ok: true, token, operator: request.operator, idleTimeoutMs: this.idleTimeoutMs };
  }

  logout(request: ParsedOperatorRequest<"logout">): OperatorResult<"logout"> {
    const session = this.sessions.get(request.token);
    if (session) this.log(`operator '${session.operator}' logged out`);
    this.sessions.delete(request.token);
    return { ok: true };
  }

  /**
   * The technician's override (behind the same PIN as every operator tool, so from another source
   * than the locked one): clear one source's PIN lockout, or every source's. Logged with who did it.
   */
  clearPinLockout(request: ParsedOperatorRequest<"clearPinLockout">): OperatorResult<"clearPinLockout"> {
    const operator = this.operatorOf(request.token);
    const cleared = this.options.pin.clearLockout(request.source);
    this.log(`operator '${operator}' cleared the PIN lockout of ${request.source ?? "every source"} (locked: ${cleared.join(", ") || "none"})`);
    return { ok: true, cleared };
  }

  /** Live operator sessions (for tests and status). */
  get activeSessions(): number {
    return this.sessions.size;
  }

  // --- framebooks ------------------------------------------------------------------------------

  framebookStatus(request: ParsedOperatorRequest<"framebookStatus">): OperatorResult<"framebookStatus"> {
    this.operatorOf(request.token);
    const system = this.requireSystem(request.system);
    const { framebooks } = this.options;
    // What passengers actually get (an invalid operator file is not in use), and why.
    const active = framebooks.inForce(system);
    const audit = framebooks.auditReport();
    return {
      system,
      source: active.source,
      version: active.version,
      text: active.text,
      previousVersions: framebooks.history(system).map((v) => v.version),
      audit: audit.entries
        .filter((a) => a.system === system)
        .reverse()
        .map(auditView),
      problem: active.problem,
      auditProblems: audit.skipped.map((s) => `audit.jsonl line ${s.line}: ${s.reason} (skipped)`),
    };
  }

  checkFramebook(request: ParsedOperatorRequest<"checkFramebook">): OperatorResult<"checkFramebook"> {
    this.operatorOf(request.token);
    const system = this.requireSystem(request.system);
    const { validation, changes } = this.options.framebooks.diff(system, request.text, request.fileName ?? "framebook.yaml");
    return {
      ok: validation.ok,
      issues: validation.issues.map(issueView),
      changes: changes.map(changeView),
      activeVersion: this.options.framebooks.inForce(system).version,
      candidateVersion: versionOf(request.text),
      farePolicies: validation.framebook ? farePolicyLines(validation.framebook) : [],
    };
  }

  applyFramebook(request: ParsedOperatorRequest<"applyFramebook">): OperatorResult<"applyFramebook"> {
    const operator = this.operatorOf(request.token);
    const system = this.requireSystem(request.system);
    const { framebooks } = this.options;
    const file = request.fileName ?? "framebook.yaml";
    const active = framebooks.inForce(system);
    if (request.expectedVersion !== undefined && request.expectedVersion !== active.version) {
      return { ok: false, reason: "stale", issues: [], activeVersion: active.version };
    }
    const { validation, changes } = framebooks.diff(system, request.text, file);
    if (!validation.ok) return { ok: false, reason: "invalid", issues: validation.issues.map(issueView), activeVersion: active.version };
    const entry = framebooks.apply(system, request.text, file, operator);
    this.log(`operator '${operator}' applied framebook ${entry.version} to ${system} (previous ${entry.previous ?? "none"}, ${changes.length} change(s))`);
    return { ok: true, entry: auditView(entry), changes: changes.map(changeView) };
  }

  rollbackFramebook(request: ParsedOperatorRequest<"rollbackFramebook">): OperatorResult<"rollbackFramebook"> {
    const operator = this.operatorOf(request.token);
    const system = this.requireSystem(request.system);
    if (this.options.framebooks.history(system).length === 0) return { ok: false, reason: "no_previous" };
    let entry;
    try {
      entry = this.options.framebooks.rollback(system, operator);
    } catch (err) {
      if (!(err instanceof FramebookRejectedError)) throw err;
      const first = err.validation.issues.find((i) => i.severity === "error");
      throw new OperatorError("rejected", `The previous framebook (${path.basename(err.validation.file)}) is not valid${first ? `: ${first.message}` : ""}. Nothing was changed; apply a corrected framebook instead.`);
    }
    this.log(`operator '${operator}' rolled ${system} back to framebook ${entry.version}`);
    return { ok: true, entry: auditView(entry) };
  }

  // --- technician ------------------------------------------------------------------------------

  technicianInfo(request: ParsedOperatorRequest<"technicianInfo">): OperatorResult<"technicianInfo"> {
    this.operatorOf(request.token);
    return this.bench().info();
  }

  startBench(request: ParsedOperatorRequest<"startBench">): OperatorResult<"startBench"> {
    const operator = this.operatorOf(request.token);
    const job = this.bench().start({ policy: request.policy, selection: request.selection, operator });
    const { selection } = request;
    const detail = selection.kind === "category" ? ` ${selection.category}` : selection.kind === "generated" ? ` for ${selection.system}: ${job.total} cases, ${selection.perCategory} per category, seed ${selection.seed}` : "";
    this.log(`operator '${operator}' started a ${request.policy} bench run (${selection.kind}${detail})`);
    return job;
  }

  benchStatus(request: ParsedOperatorRequest<"benchStatus">): OperatorResult<"benchStatus"> {
    this.operatorOf(request.token);
    return this.bench().status();
  }

  stopBench(request: ParsedOperatorRequest<"stopBench">): OperatorResult<"stopBench"> {
    const operator = this.operatorOf(request.token);
    this.log(`operator '${operator}' stopped the bench run`);
    return this.bench().stop();
  }

  benchReport(request: ParsedOperatorRequest<"benchReport">): OperatorResult<"benchReport"> {
    this.operatorOf(request.token);
    return this.bench().report(request.runId);
  }

  exportBench(request: ParsedOperatorRequest<"exportBench">): OperatorResult<"exportBench"> {
    this.operatorOf(request.token);
    return this.bench().exportRun(request.runId, request.format, request.system);
  }

  latencyProbe(request: ParsedOperatorRequest<"latencyProbe">): Promise<OperatorResult<"latencyProbe">> {
    this.operatorOf(request.token);
    return this.bench().latencyProbe();
  }

  // --- service alerts and the session audit ----------------------------------------------------

  listAlerts(request: ParsedOperatorRequest<"listAlerts">): OperatorResult<"listAlerts"> {
    this.operatorOf(request.token);
    return this.live().listAlerts(request.system);
  }

  saveAlert(request: ParsedOperatorRequest<"saveAlert">): OperatorResult<"saveAlert"> {
    const operator = this.operatorOf(request.token);
    const result = this.live().saveAlert(operator, request.alert, request.mode, request.ifUnread);
    if (result.ok) this.log(`operator '${operator}' ${request.mode === "add" ? "added" : "edited"} service alert ${result.record.alert.id} (${result.record.alert.system}, ${result.record.alert.type})`);
    return result;
  }

  endAlert(request: ParsedOperatorRequest<"endAlert">): OperatorResult<"endAlert"> {
    const operator = this.operatorOf(request.token);
    const result = this.live().endAlert(operator, request.id, request.reason);
    if (result.ok) this.log(`operator '${operator}' ended service alert ${request.id}`);
    return result;
  }

  previewAlert(request: ParsedOperatorRequest<"previewAlert">): Promise<OperatorResult<"previewAlert">> {
    this.operatorOf(request.token);
    return this.live().previewAlert(request.alert, request.sessions);
  }

  auditSessions(request: ParsedOperatorRequest<"auditSessions">): OperatorResult<"auditSessions"> {
    this.operatorOf(request.token);
    return this.live().auditSessions(request.filter);
  }

  auditTimeline(request: ParsedOperatorRequest<"auditTimeline">): OperatorResult<"auditTimeline"> {
    this.operatorOf(request.token);
    return this.live().auditTimeline(request.sessionId);
  }
}

/**
 * Call one operator method with an unvalidated payload: parse it with the method's request schema
 * (a ZodError is returned, not thrown, so adapters can answer 400 / "rejected"), then call.
 */
export function parseOperatorRequest<M extends OperatorMethod>(method: M, payload: unknown): { ok: true; request: ParsedOperatorRequest<M> } | { ok: false; error: z.ZodError } {
  const parsed = OPERATOR_METHODS[method].request.safeParse(payload);
  return parsed.success ? { ok: true, request: parsed.data as ParsedOperatorRequest<M> } : { ok: false, error: parsed.error };
}

/** Dispatch a parsed request to the backend (typed once, for the adapters); `source` is where it came from (login takes it). */
export function callOperator<M extends OperatorMethod>(backend: OperatorBackend, method: M, request: ParsedOperatorRequest<M>, source?: string): Promise<OperatorResult<M>> {
  const fn = backend[method] as (r: ParsedOperatorRequest<M>, source?: string) => OperatorResult<M> | Promise<OperatorResult<M>>;
  return Promise.resolve(fn.call(backend, request, source));
}

