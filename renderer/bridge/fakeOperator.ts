// An in-memory OperatorBridge for renderer tests and the dev entry (the fake bridge): a PIN given by
// the caller (no real PIN exists here), demo framebooks with a small line/column checker, a diff by
// key path, apply/rollback with an audit log, and a simulated bench run the caller (or a timer)
// advances case by case.
import {
  BENCH_CATEGORIES as CATEGORIES,
  BenchSelectionSchema,
  type BenchCategory,
  type BenchGeneration,
  type BenchJob,
  type BenchSelection,
  type FramebookAuditEntry,
  type FramebookChangeView,
  type FramebookIssueView,
  type OperatorBridge,
  type OperatorRequest,
  type OperatorResult,
  type SystemSummary,
  type TechnicianInfo,
} from "../../runtime/kiosk/bridge.ts";
import { OperatorBridgeError } from "./operatorBridge.ts";
import { createFakeLiveOperator, type FakeLiveOptions } from "./fakeOperatorLive.ts";

type SystemId = SystemSummary["id"];

export interface FakeOperatorOptions {
  /** The PIN this fake accepts. */
  pin: string;
  /** Active framebook text per system (default: a small demo framebook for every system asked about). */
  framebooks?: Partial<Record<SystemId, string>>;
  /** Cases per category of the simulated bench (default 3). */
  casesPerCategory?: number;
  /** Advance the simulated run every this many ms (0: only `tick()` advances it). */
  stepDelayMs?: number;
  /** The configured model (enables llm/hybrid), if any. */
  model?: string | null;
  /** Systems imported on this fake kiosk: a "generated" selection is accepted for these only. */
  importedSystems?: readonly SystemId[];
  now?: () => Date;
  /** Service alerts and audited sessions (fakeOperatorLive.ts). */
  live?: FakeLiveOptions;
}

export interface FakeOperator extends OperatorBridge {
  /** Finish one more case of the running bench job. */
  tick(): void;
  readonly audit: FramebookAuditEntry[];
  readonly calls: string[];
}

export const DEMO_FRAMEBOOK = `framebook:
  org_name: "Demo Transit"
  full_name: "Demo Metropolitan Transit"
  primary_language: "en"
  currency_symbol: "$"
  currency_code: "USD"
  fare_display_format: "$X.XX"
  operating_hours:
    default: "05:00-01:00"
  cultural_notes: []
`;

function hash(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h.toString(16).padStart(8, "0") + text.length.toString(16).padStart(4, "0");
}

/** A YAML-ish key map ("a.b.c" → value text) of simple `key: value` lines, for the demo diff. */
function keyMap(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const stack: { indent: number; key: string }[] = [];
  let lastKey: string | null = null;
  for (const line of text.split("\n")) {
    const m = /^(\s*)([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (!m) {
      if (lastKey && line.trim()) out.set(lastKey, `${out.get(lastKey) ?? ""}\n${line.trim()}`.trim());
      continue;
    }
    const indent = m[1]!.length;
    while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop();
    const key = [...stack.map((s) => s.key), m[2]!].slice(1).join(".") || m[2]!;
    stack.push({ indent, key: m[2]! });
    lastKey = key;
    if (m[3]) out.set(key, m[3]);
  }
  return out;
}

/** The demo checker: quotes must close on their line, tabs are not allowed, `framebook:` must come first. */
export function fakeCheck(text: string): FramebookIssueView[] {
  const issues: FramebookIssueView[] = [];
  const lines = text.split("\n");
  if (!/^framebook:\s*$/m.test(lines[0] ?? "")) issues.push({ severity: "error", message: "expected the top-level key 'framebook'", path: "(root)", line: 1, column: 1 });
  lines.forEach((line, i) => {
    const tab = line.indexOf("\t");
    if (tab >= 0) issues.push({ severity: "error", message: "invalid YAML: tabs are not allowed for indentation", path: "(root)", line: i + 1, column: tab + 1 });
    const quotes = [...line.matchAll(/"/g)];
    if (quotes.length % 2 === 1) issues.push({ severity: "error", message: "invalid YAML: missing closing quote", path: "(root)", line: i + 1, column: (quotes.at(-1)?.index ?? 0) + 1 });
  });
  return issues;
}

function diff(before: string, after: string): FramebookChangeView[] {
  const a = keyMap(before);
  const b = keyMap(after);
  const keys = [...new Set([...a.keys(), ...b.keys()])];
  return keys.filter((k) => a.get(k) !== b.get(k)).map((k) => ({ path: k, before: a.get(k) ?? null, after: b.get(k) ?? null }));
}

export function createFakeOperatorBridge(options: FakeOperatorOptions): FakeOperator {
  const now = options.now ?? (() => new Date());
  const sessions = new Map<string, string>();
  const active = new Map<SystemId, string>();
  const history = new Map<SystemId, string[]>();
  const audit: FramebookAuditEntry[] = [];
  const calls: string[] = [];
  let failures = 0;
  let counter = 0;
  const perCategory = options.casesPerCategory ?? 3;
  let job: BenchJob | null = null;
  let runs: { runId: number; status: string; policy: string; startedAt: string; total: number; done: number }[] = [];
  let timer: ReturnType<typeof setInterval> | null = null;

  const textOf = (system: SystemId): string => active.get(system) ?? options.framebooks?.[system] ?? DEMO_FRAMEBOOK;
  const operatorOf = (token: string): string => {
    const name = sessions.get(token);
    if (!name) throw new OperatorBridgeError("unauthorized", "fake operator: no such session");
    return name;
  };

  function selectionCategories(selection: BenchSelection): BenchCategory[] {
    return selection.kind === "category" ? [selection.category] : [...CATEGORIES];
  }

  /** The fake's generator: every category but the two network data cannot answer (as bench/generate skips E and K). */
  const FAKE_SKIPPED: Partial<Record<BenchCategory, string>> = {
    E: "cultural questions are answered from the framebook's cultural notes; network data has neither",
    K: "compound cases have hand-written answer keys; not generated",
  };
  function fakeGeneration(system: SystemId, perCategory: number, seed: number): BenchGeneration {
    const categories = CATEGORIES.map((category) => {
      const skipped = FAKE_SKIPPED[category] ?? null;
      return { category, requested: perCategory, generated: skipped === null ? perCategory : 0, skipped, notes: [], dropped: {} };
    });
    const cases = categories.reduce((n, c) => n + c.generated, 0);
    return { system, perCategory, seed, cases, casesFile: `var/generated-cases/${system}-${perCategory}x-seed${seed}.json`, categories };
  }

  function tick(): void {
    if (!job || job.state !== "running") return;
    const next = job.categories.find((c) => c.done < c.total);
    if (!next) return;
    next.done++;
    next.scored++;
    const score = 100 - ((next.category.charCodeAt(0) * 7 + next.done * 13) % 23);
    next.tier1 = ((next.tier1 ?? 0) * (next.scored - 1) + score) / next.scored;
    next.composite = ((next.composite ?? 0) * (next.scored - 1) + score - 6) / next.scored;
    job.done++;
    job.scored++;
    const scored = job.categories.filter((c) => c.scored > 0);
    job.tier1 = scored.reduce((s, c) => s + (c.tier1 ?? 0) * c.scored, 0) / job.scored;
    job.composite = scored.reduce((s, c) => s + (c.composite ?? 0) * c.scored, 0) / job.scored;
    job.elapsedMs += options.stepDelayMs || 250;
    const run = runs.find((r) => r.runId === job!.runId);
    if (run) run.done = job.done;
    if (job.done >= job.total) finish("finished");
  }

  function finish(state: "finished" | "interrupted"): void {
    if (!job) return;
    job.state = state;
    const run = runs.find((r) => r.runId === job!.runId);
    if (run) run.status = state;
    if (timer) clearInterval(timer);
    timer = null;
  }

  const info = (): TechnicianInfo => ({
    policies: (["rule", "rule-ref", "llm", "hybrid"] as const).map((name) =>
      name === "llm" || name === "hybrid"
        ? options.model
          ? { name, available: true, unavailableReason: null }
          : { name, available: false, unavailableReason: "no_model" as const }
        : { name, available: true, unavailableReason: null },
    ),
    counts: {
      probe: CATEGORIES.length,
      holdout: Math.round(CATEGORIES.length * perCategory * 0.3),
      all: CATEGORIES.length * perCategory,
      categories: CATEGORIES.map((category) => ({ category, cases: perCategory })),
    },
    model: { configured: Boolean(options.model), name: options.model ?? null },
    database: "var/bench.sqlite",
    generatedCasesDir: "var/generated-cases",
  });

  const status = (): OperatorResult<"benchStatus"> => ({
    job: job ? structuredClone(job) : null,
    runs: runs
      .slice()
      .reverse()
      .map((r) => ({ runId: r.runId, status: r.status, policy: r.policy, model: r.policy, startedAt: r.startedAt, casesTotal: r.total, casesDone: r.done, casesScored: r.done, systems: ["marta", "doha"] })),
  });

  const bridge: OperatorBridge = {
    async login(request: OperatorRequest<"login">) {
      calls.push("login");
      if (failures >= 3) return { ok: false, reason: "locked", retryAfterMs: 30_000, attemptsLeft: 0 };
      if (request.pin !== options.pin) {
        failures++;
        return failures >= 3 ? { ok: false, reason: "locked", retryAfterMs: 30_000, attemptsLeft: 0 } : { ok: false, reason: "wrong_pin", retryAfterMs: 0, attemptsLeft: 3 - failures };
      }
      failures = 0;
      const token = `fake-operator-token-${String(++counter).padStart(24, "0")}`;
      sessions.set(token, request.operator.trim());
      return { ok: true, token, operator: request.operator.trim(), idleTimeoutMs: 600_000 };
    },
    async logout(request) {
      calls.push("logout");
      sessions.delete(request.token);
      return { ok: true };
    },
    async clearPinLockout(request) {
      calls.push("clearPinLockout");
      operatorOf(request.token);
      const cleared = failures >= 3 ? ["screen"] : [];
      failures = 0;
      return { ok: true, cleared };
    },
    async framebookStatus(request) {
      operatorOf(request.token);
      calls.push(`framebookStatus ${request.system}`);
      const text = textOf(request.system);
      return {
        system: request.system,
        source: active.has(request.system) ? "operator" : "data-pack",
        version: hash(text),
        text,
        previousVersions: (history.get(request.system) ?? []).map(hash),
        audit: audit.filter((a) => a.system === request.system).reverse(),
      };
    },
    async checkFramebook(request) {
      operatorOf(request.token);
      calls.push(`checkFramebook ${request.system}`);
      const issues = fakeCheck(request.text);
      const ok = !issues.some((i) => i.severity === "error");
      return { ok, issues, changes: ok ? diff(textOf(request.system), request.text) : [], activeVersion: hash(textOf(request.system)), candidateVersion: hash(request.text), farePolicies: [] };
    },
    async applyFramebook(request) {
      const who = operatorOf(request.token);
      calls.push(`applyFramebook ${request.system}`);
      const current = textOf(request.system);
      if (request.expectedVersion !== undefined && request.expectedVersion !== hash(current)) return { ok: false, reason: "stale", issues: [], activeVersion: hash(current) };
      const issues = fakeCheck(request.text);
      if (issues.some((i) => i.severity === "error")) return { ok: false, reason: "invalid", issues, activeVersion: hash(current) };
      history.set(request.system, [...(history.get(request.system) ?? []), current]);
      active.set(request.system, request.text);
      const entry: FramebookAuditEntry = { at: now().toISOString(), who, system: request.system, action: "apply", version: hash(request.text), previous: hash(current) };
      audit.push(entry);
      return { ok: true, entry, changes: diff(current, request.text) };
    },
    async rollbackFramebook(request) {
      const who = operatorOf(request.token);
      calls.push(`rollbackFramebook ${request.system}`);
      const previous = history.get(request.system) ?? [];
      const text = previous.pop();
      if (text === undefined) return { ok: false, reason: "no_previous" };
      const current = textOf(request.system);
      active.set(request.system, text);
      const entry: FramebookAuditEntry = { at: now().toISOString(), who, system: request.system, action: "rollback", version: hash(text), previous: hash(current) };
      audit.push(entry);
      return { ok: true, entry };
    },
    async technicianInfo(request) {
      operatorOf(request.token);
      return info();
    },
    async startBench(request) {
      const who = operatorOf(request.token);
      calls.push(`startBench ${request.policy} ${request.selection.kind}${request.selection.kind === "generated" ? ` ${request.selection.system}` : ""}`);
      // Validated as the kiosk validates it (the contract's schema: defaults, count and seed ranges).
      const parsed = BenchSelectionSchema.safeParse(request.selection);
      if (!parsed.success) {
        const detail = `invalid request: ${parsed.error.issues[0]?.message ?? "invalid"}`;
        throw new OperatorBridgeError("rejected", `fake operator: ${detail}`, { detail });
      }
      const selection = parsed.data;
      if (job?.state === "running") throw new OperatorBridgeError("conflict", "fake operator: a run is in progress");
      let generation: BenchGeneration | undefined;
      if (selection.kind === "generated") {
        if (!options.importedSystems?.includes(selection.system)) {
          const detail = `'${selection.system}' is not an imported system of this kiosk.`;
          throw new OperatorBridgeError("rejected", `fake operator: ${detail}`, { detail });
        }
        generation = fakeGeneration(selection.system, selection.perCategory, selection.seed);
      }
      const categories = generation ? generation.categories.filter((c) => c.generated > 0).map((c) => c.category) : selectionCategories(selection);
      const each = selection.kind === "probe" ? 1 : generation ? generation.perCategory : perCategory;
      const runId = runs.length + 1;
      const started: BenchJob = {
        runId,
        state: "running",
        policy: request.policy,
        model: request.policy === "llm" || request.policy === "hybrid" ? (options.model ?? null) : request.policy,
        selection,
        startedBy: who,
        startedAt: now().toISOString(),
        total: categories.length * each,
        done: 0,
        scored: 0,
        tier1: null,
        composite: null,
        elapsedMs: 0,
        categories: categories.map((category) => ({ category, total: each, done: 0, scored: 0, tier1: null, composite: null })),
        error: null,
        ...(generation ? { generation } : {}),
      };
      job = started;
      runs = [...runs, { runId, status: "running", policy: request.policy, startedAt: started.startedAt, total: started.total, done: 0 }];
      if (options.stepDelayMs) timer = setInterval(tick, options.stepDelayMs);
      return structuredClone(started);
    },
    async benchStatus(request) {
      operatorOf(request.token);
      return status();
    },
    async stopBench(request) {
      operatorOf(request.token);
      calls.push("stopBench");
      if (job?.state === "running") finish("interrupted");
      return status();
    },
    async benchReport(request) {
      operatorOf(request.token);
      calls.push(`benchReport ${request.runId}`);
      if (!runs.some((r) => r.runId === request.runId)) throw new OperatorBridgeError("rejected", `fake operator: no run ${request.runId}`);
      return { runId: request.runId, html: `<!doctype html><title>Run ${request.runId}</title><h1>MetroLLM-Bench · run ${request.runId}</h1><svg width="200" height="20"><rect width="150" height="20" fill="#0b4f9c"></rect></svg>` };
    },
    async exportBench(request) {
      operatorOf(request.token);
      calls.push(`exportBench ${request.runId} ${request.format}${request.system ? ` ${request.system}` : ""}`);
      const name = request.format === "summary" ? "summary" : (request.system ?? "marta");
      return { fileName: `bench-run-${request.runId}-${name}.json`, mediaType: "application/json", content: JSON.stringify({ run_id: request.runId, format: request.format }) };
    },
    async latencyProbe(request) {
      operatorOf(request.token);
      return options.model ? { available: false, reason: "not_built" } : { available: false, reason: "no_model" };
    },
    ...createFakeLiveOperator({ operatorOf, calls, now }, options.live),
  };
  return Object.assign(bridge, { tick, audit, calls });
}
