// `kiosk alerts …`: service alerts — what is in force, add (or edit) one, end one, import a
// GTFS-Realtime Service Alerts feed from a file or a URL polled at an interval, and the audit log.
// Every change names its operator; the next passenger session of `kiosk serve` (same --alerts-db)
// sees it at once.
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import YAML from "yaml";
import { SystemIdSchema, UnreadDecisionSchema, type SystemId } from "../tools/data/schemas.ts";
import type { DataPack } from "../tools/data/datapack.ts";
import type { SystemData } from "../tools/data/system.ts";
import { alertStatus, DEFAULT_ANNOUNCE_AHEAD_HOURS } from "../runtime/alerts/active.ts";
import { alertReading, readingInWords, type NoticeReading } from "../runtime/kiosk/notice-reading.ts";
import { loadGtfsIdIndex } from "../runtime/alerts/gtfs-ids.ts";
import { GtfsFeedError } from "../runtime/alerts/gtfs-rt.ts";
import { DEFAULT_FEED_MAX_AGE_SEC, FeedPoller, ingestFeed, type IngestResult } from "../runtime/alerts/ingest.ts";
import { alertText, formatAlertIssues, localIso, normaliseTime, validateAlert, type Alert } from "../runtime/alerts/model.ts";
import { ALERTS_DB_ENV, AlertStore, AlertStoreError, alertsDbPath, type AlertRecord } from "../runtime/alerts/store.ts";
import { DISRUPTION_SEVERITIES, DISRUPTION_TYPES } from "../runtime/alerts/vocabulary.ts";
import { renderTable } from "../bench/report/table.ts";
import { dataPack, printJson, UsageError, type GlobalOptions } from "./context.ts";
import { confirm, operatorName } from "./operator-name.ts";
import { addPreviewOptions, storedSessions } from "./preview.ts";
import { replayBeforeApply, replayReportText } from "../runtime/replay/replay.ts";
import { alertDraft } from "../runtime/replay/drafts.ts";
import { commandDescription } from "./commands.ts";

interface AlertsOptions extends GlobalOptions {
  alertsDb?: string;
  system?: string;
  json?: boolean;
  operator?: string;
}

function withStore<T>(opts: AlertsOptions, fn: (store: AlertStore) => T): T {
  let store: AlertStore;
  try {
    store = AlertStore.open(alertsDbPath(opts.alertsDb));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const close = (): void => store.close();
  try {
    const result = fn(store);
    if (result instanceof Promise) return result.finally(close) as T;
    close();
    return result;
  } catch (err) {
    close();
    if (err instanceof AlertStoreError) throw new UsageError(err.message);
    throw err;
  }
}

function systemOf(value: string | undefined, required = true): SystemId | undefined {
  if (value === undefined && !required) return undefined;
  const parsed = SystemIdSchema.safeParse(value);
  if (!parsed.success) throw new UsageError(`--system: ${parsed.error.issues[0]?.message ?? "not a system id"} (got '${value ?? ""}')`);
  return parsed.data;
}

function where(alert: Alert): string {
  const parts: string[] = [];
  if (alert.lines.length > 0) parts.push(`line ${alert.lines.join(", ")}`);
  if (alert.segment) parts.push(`${alert.segment.from_station}–${alert.segment.to_station}`);
  if (alert.stations.length > 0) parts.push(alert.stations.join(", "));
  return parts.join(" · ") || "whole network";
}

function short(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function listTable(pack: DataPack, records: readonly AlertRecord[], now: string): string {
  const header = ["id", "system", "status", "type", "severity", "where", "from", "until", "text", "by"];
  const rows = records.map((r) => [
    r.alert.id,
    r.alert.system,
    alertStatus(r, now),
    r.alert.type,
    r.alert.severity,
    where(r.alert),
    r.alert.valid_from?.replace("T", " ").slice(0, 16) ?? "–",
    r.alert.valid_until?.replace("T", " ").slice(0, 16) ?? "(until ended)",
    short(alertText(r.alert, undefined, pack.system(r.alert.system).framebook.primary_language)),
    r.alert.source.kind === "gtfs-rt" ? `feed (${r.updated_by})` : r.updated_by,
  ]);
  return renderTable(header.map(() => ({ align: "l" as const })), header, rows);
}

/** Alerts from a JSON or YAML file: one alert, a list, or {alerts: [...]}. */
function readAlertFile(file: string): unknown[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new UsageError(`cannot read alert file '${file}'`);
  }
  let value: unknown;
  try {
    value = file.endsWith(".json") ? JSON.parse(text) : YAML.parse(text);
  } catch (err) {
    throw new UsageError(`${file}: not valid ${file.endsWith(".json") ? "JSON" : "YAML"}: ${(err as Error).message}`);
  }
  if (Array.isArray(value)) return value;
  if (value && typeof value === "object" && Array.isArray((value as { alerts?: unknown }).alerts)) return (value as { alerts: unknown[] }).alerts;
  return [value];
}

/** What the kiosk reads in an alert, as the terminal shows it before the alert takes effect. */
export function alertReadingText(id: string, system: SystemData, reading: NoticeReading): string {
  return `${id}: the kiosk reads\n${readingInWords(system, reading).map((l) => `  - ${l}\n`).join("")}`;
}

interface AddOptions extends AlertsOptions {
  id?: string;
  type?: string;
  severity?: string;
  line: string[];
  station: string[];
  fromStation?: string;
  toStation?: string;
  from?: string;
  until?: string;
  text?: string;
  translation: string[];
  alternative?: string;
  eta?: string;
  replace?: boolean;
  openEnded?: boolean;
  preview?: boolean;
  ifUnread?: string;
  sessions?: string;
  auditDb?: string;
}

/** Replay the latest audited sessions of the alerts' systems with and without them, at the time they start. */
async function previewAlerts(pack: DataPack, store: AlertStore, alerts: readonly Alert[], opts: AddOptions): Promise<string> {
  const now = new Date();
  const starts = alerts.map((a) => (a.valid_from ? new Date(a.valid_from) : now)).filter((d) => d > now);
  const at = starts.length === alerts.length && starts.length > 0 ? new Date(Math.min(...starts.map((d) => d.getTime()))) : now;
  const ids = new Set(alerts.map((a) => a.id));
  const out: string[] = [];
  for (const system of [...new Set(alerts.map((a) => a.system))]) {
    const current = store.current(system);
    const draft = [...current.filter((r) => !ids.has(r.alert.id)), ...alerts.filter((a) => a.system === system).map((alert) => ({ alert, ended_at: null }))];
    const report = await replayBeforeApply({ pack, sessions: storedSessions(opts, system), ...alertDraft((s) => pack.system(s), current, draft, at) });
    out.push(replayReportText(report, `for ${system} with the new alert(s) in force at ${localIso(at)}`));
  }
  return out.join("\n");
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** The alert given by flags, in the file format (validated like a file's). */
function alertFromFlags(pack: DataPack, opts: AddOptions): Record<string, unknown> {
  const system = systemOf(opts.system)!;
  if (!opts.type) throw new UsageError(`--type is required (one of: ${DISRUPTION_TYPES.join(", ")})`);
  if (!opts.text) throw new UsageError("--text is required: what passengers are told (in the system's language; more with --translation LANG=TEXT)");
  const text: Record<string, string> = { [pack.system(system).framebook.primary_language]: opts.text };
  for (const t of opts.translation) {
    const eq = t.indexOf("=");
    if (eq <= 0) throw new UsageError(`--translation must be LANG=TEXT (got '${t}')`);
    text[t.slice(0, eq).trim()] = t.slice(eq + 1);
  }
  if ((opts.fromStation === undefined) !== (opts.toStation === undefined)) throw new UsageError("a segment needs both --from-station and --to-station");
  return {
    ...(opts.id ? { id: opts.id } : {}),
    system,
    type: opts.type,
    ...(opts.severity ? { severity: opts.severity } : {}),
    lines: opts.line,
    stations: opts.station,
    segment: opts.fromStation && opts.toStation ? { from_station: opts.fromStation, to_station: opts.toStation } : null,
    valid_from: opts.from ?? null,
    valid_until: opts.until ?? null,
    text,
    alternative: opts.alternative ?? null,
    eta_resolution: opts.eta ?? null,
  };
}

function parseDuration(text: string, flag: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|min|h)?$/.exec(text.trim());
  if (!m) throw new UsageError(`${flag}: not a duration such as 30s, 5m or 1h (got '${text}')`);
  const n = Number(m[1]);
  const unit = m[2] ?? "s";
  const ms = unit === "ms" ? n : unit === "s" ? n * 1000 : unit === "h" ? n * 3_600_000 : n * 60_000;
  if (!(ms >= 1000)) throw new UsageError(`${flag}: at least one second (got '${text}')`);
  return ms;
}

function ingestSummary(r: IngestResult): string {
  const lines = [
    `${r.feed}: ${r.alertEntities} alert(s) in the feed${r.feedTimestamp ? ` of ${r.feedTimestamp}` : ""} · ${r.added.length} added, ${r.updated.length} updated, ${r.unchanged.length} unchanged, ${r.ended.length} ended`,
  ];
  for (const p of r.problems) lines.push(`  ${p.kind === "partial" ? "warning" : "skipped"}: entity ${p.entity}: ${p.message}`);
  return lines.join("\n");
}

export function registerAlertsCommands(program: Command): void {
  const alerts = program
    .command("alerts")
    .description(commandDescription("alerts"))
    .option("--alerts-db <file>", `alert store (else $${ALERTS_DB_ENV}, else ./var/alerts.sqlite); kiosk serve reads the same file`);

  alerts
    .command("list")
    .description("alerts in force or announced (within a day); --all adds ended and expired ones")
    .option("--system <id>", "only this system")
    .option("--all", "include ended and expired alerts")
    .option("--at <time>", "status at this local time (default: now)")
    .option("--json", "print as JSON")
    .action((_o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<AlertsOptions & { all?: boolean; at?: string }>();
      const pack = dataPack(opts);
      const system = systemOf(opts.system, false);
      const now = opts.at !== undefined ? normaliseTime(opts.at) : localIso(new Date());
      if (!now) throw new UsageError(`--at: not a time: '${opts.at}'`);
      withStore(opts, (store) => {
        const ahead = localIso(new Date(new Date(now).getTime() + DEFAULT_ANNOUNCE_AHEAD_HOURS * 3_600_000));
        const records = store.list(system).filter((r) => {
          const status = alertStatus(r, now);
          return opts.all || status === "active" || (status === "upcoming" && (r.alert.valid_from ?? "") <= ahead);
        });
        if (opts.json) return printJson({ db: store.file, at: now, alerts: records.map((r) => ({ ...r, status: alertStatus(r, now) })) });
        process.stdout.write(records.length === 0 ? `no ${opts.all ? "" : "current "}alerts${system ? ` for ${system}` : ""} in ${store.file}\n` : `${listTable(pack, records, now)}\n`);
      });
    });

  addPreviewOptions(
    alerts
      .command("add [file]")
      .description("add alerts from a JSON/YAML file (one, a list, or {alerts: [...]}) or from flags; --replace edits a running one")
      .option("--system <id>", "the system")
      .option("--id <id>", "the alert's id (default: made up)")
      .option("--type <type>", `disruption type: ${DISRUPTION_TYPES.join(", ")}`)
      .option("--severity <s>", `${DISRUPTION_SEVERITIES.join(", ")} (default: the framebook's advisory_severity_mapping)`)
      .option("--line <line>", "a line id or name (repeat for more)", collect, [])
      .option("--station <station>", "a station id or name (repeat for more)", collect, [])
      .option("--from-station <station>", "segment: no service from this station…")
      .option("--to-station <station>", "…to this one (on one line)")
      .option("--from <time>", "valid from, local time YYYY-MM-DDTHH:MM (default: now)")
      .option("--until <time>", "valid until, local time YYYY-MM-DDTHH:MM: the alert expires by itself then")
      .option("--open-ended", "no --until: the alert stays until someone ends it")
      .option("--text <text>", "what passengers are told, in the system's language")
      .option("--translation <lang=text>", "the text in another language, e.g. es=Estación cerrada (repeat)", collect, [])
      .option("--alternative <text>", "what passengers can do instead")
      .option("--eta <text>", "when service is expected back")
      .option("--replace", "edit the running alert with this id")
      .option("--preview", "first replay the latest stored passenger sessions with the alert in force and show what would change (asks to confirm on a terminal)")
      .option("--if-unread <decision>", `what an alert whose words stop service where the kiosk cannot map it does to the trips it may touch: ${UnreadDecisionSchema.options.join(", ")} (refer: to staff; block: not sold; ignore: sold as usual, the words shown)`)
      .option("--operator <name>", "who is adding it (audit log; asked on a terminal when missing)")
      .option("--json", "print the stored alerts as JSON")
      .action(async (file: string | undefined, _o: unknown, cmd: Command) => {
        const opts = cmd.optsWithGlobals<AddOptions>();
        const pack = dataPack(opts);
        const inputs = file ? readAlertFile(file) : [alertFromFlags(pack, opts)];
        const where = file ?? "alert";
        const checked: Alert[] = [];
        const problems: string[] = [];
        inputs.forEach((input, i) => {
          const label = inputs.length > 1 ? `${where}[${i}]` : where;
          const v = validateAlert(input, { system: (s) => (pack.systemIds.includes(s) ? pack.system(s) : undefined) });
          if (!v.ok) problems.push(formatAlertIssues(v.issues, file ? label : "alert"));
          else if (v.alert.valid_until === null && !opts.openEnded) problems.push(`${file ? label : "alert"}.valid_until: give the time the alert ends (${file ? "valid_until" : "--until"}) so it expires by itself, or --open-ended to keep it until someone ends it`);
          else checked.push(v.alert);
        });
        if (problems.length > 0) {
          process.stderr.write(`${problems.join("\n")}\nnothing was added\n`);
          process.exitCode = 1;
          return;
        }
        // What the kiosk reads in each alert: the operator sees it before it takes effect, and one
        // whose words stop service somewhere the kiosk cannot map needs the operator's decision.
        const decided = opts.ifUnread === undefined ? undefined : UnreadDecisionSchema.safeParse(opts.ifUnread);
        if (decided && !decided.success) throw new UsageError(`--if-unread ${opts.ifUnread}: expected one of ${UnreadDecisionSchema.options.join(", ")}`);
        const undecided: number[] = [];
        for (const [i, alert] of checked.entries()) {
          const system = pack.system(alert.system);
          const read = (a: Alert): NoticeReading => alertReading(a, system, localIso(new Date()));
          let reading = read(alert);
          // The decision is kept only with an alert that needs one.
          if (reading.unread && reading.decision === null && decided?.success) reading = read((checked[i] = { ...alert, if_unread: decided.data }));
          (opts.json ? process.stderr : process.stdout).write(alertReadingText(alert.id, system, reading));
          if (reading.unread && reading.decision === null) undecided.push(i);
        }
        if (undecided.length > 0) {
          const ids = undecided.map((i) => checked[i]!.id);
          const ask = `The kiosk cannot tell which trips ${ids.join(", ")} stop${ids.length === 1 ? "s" : ""}. Refer the trips ${ids.length === 1 ? "it" : "they"} may touch to staff while in force?`;
          if (!process.stdin.isTTY || !(await confirm(ask))) {
            process.stderr.write(`${ids.map((id) => `${id}.text: says service stops but not where the kiosk can map (give --line, --station or --from-station/--to-station)`).join("\n")}\nnothing was added (or decide with --if-unread refer|block|ignore, or if_unread in the file)\n`);
            process.exitCode = 1;
            return;
          }
          for (const i of undecided) checked[i] = { ...checked[i]!, if_unread: "refer" };
        }
        if (opts.preview) {
          const text = await withStore(opts, (store) => previewAlerts(pack, store, checked, opts));
          process.stdout.write(text);
          if (process.stdin.isTTY && !(await confirm(`Add ${checked.length === 1 ? "this alert" : `these ${checked.length} alerts`}?`))) {
            process.stdout.write("not added\n");
            return;
          }
        }
        const who = await operatorName(opts.operator, "added the alert");
        withStore(opts, (store) => {
          const stored = checked.map((alert) => (opts.replace ? store.replace(alert, who) : store.add(alert, who)));
          if (opts.json) return printJson({ db: store.file, alerts: stored });
          for (const r of stored) process.stdout.write(`${opts.replace ? "edited" : "added"} ${r.alert.id} (${r.alert.system}, ${r.alert.type}, ${r.alert.severity}, ${r.alert.valid_until ? `until ${r.alert.valid_until}` : "until ended"}) by ${who}\n`);
        });
      }),
    "with --preview: ",
  );

  alerts
    .command("end <id>")
    .description("end an alert now: the next passenger session no longer sees it")
    .option("--reason <text>", "why (audit log)")
    .option("--operator <name>", "who is ending it (audit log; asked on a terminal when missing)")
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<AlertsOptions & { reason?: string }>();
      const who = await operatorName(opts.operator, "ended the alert");
      withStore(opts, (store) => {
        const r = store.end(id, who, opts.reason);
        process.stdout.write(`ended ${r.alert.id} (${r.alert.system}) by ${who}\n`);
      });
    });

  alerts
    .command("import [file]")
    .description("import a GTFS-Realtime Service Alerts feed (protobuf) from a file, or from --url (polled with --every)")
    .option("--system <id>", "the system the feed is for")
    .option("--url <url>", "the feed's URL")
    .option("--every <duration>", "with --url: poll at this interval (e.g. 60s, 5m) until stopped with Ctrl-C")
    .option("--max-age <seconds>", `refuse a feed whose timestamp is older than this (default ${DEFAULT_FEED_MAX_AGE_SEC})`)
    .option("--operator <name>", "who is importing (audit log; asked on a terminal when missing)")
    .option("--json", "print the result as JSON")
    .action(async (file: string | undefined, _o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<AlertsOptions & { url?: string; every?: string; maxAge?: string }>();
      if ((file === undefined) === (opts.url === undefined)) throw new UsageError("give a feed file or --url (one of them)");
      if (opts.every && !opts.url) throw new UsageError("--every polls a --url");
      const pack = dataPack(opts);
      const system = pack.system(systemOf(opts.system)!);
      const maxAgeSec = opts.maxAge !== undefined ? Number(opts.maxAge) : DEFAULT_FEED_MAX_AGE_SEC;
      if (!(maxAgeSec > 0)) throw new UsageError(`--max-age: not a positive number of seconds: '${opts.maxAge}'`);
      const intervalMs = opts.every ? parseDuration(opts.every, "--every") : undefined;
      const who = await operatorName(opts.operator, "imported the feed");
      const index = loadGtfsIdIndex(pack.root, system);
      const report = (r: IngestResult): void => (opts.json ? printJson(r) : void process.stdout.write(`${ingestSummary(r)}\n`));
      await withStore(opts, async (store) => {
        const common = { system, index, who, maxAgeSec };
        if (file !== undefined) {
          let bytes: Uint8Array;
          try {
            bytes = readFileSync(file);
          } catch {
            throw new UsageError(`cannot read feed file '${file}'`);
          }
          try {
            report(ingestFeed(store, bytes, { ...common, feed: file, now: new Date() }));
          } catch (err) {
            if (err instanceof GtfsFeedError) throw new UsageError(`${file}: ${err.message}; no alert was changed`);
            throw err;
          }
          return;
        }
        let failed = false;
        const poller = new FeedPoller(store, {
          ...common,
          url: opts.url!,
          intervalMs: intervalMs ?? 60_000,
          onResult: report,
          onError: (err) => {
            failed = true;
            process.stderr.write(`${new Date().toISOString()} ${err.message}; the alerts in force are kept\n`);
          },
        });
        if (intervalMs === undefined) {
          await poller.pollOnce();
          if (failed) process.exitCode = 1;
          return;
        }
        process.stderr.write(`polling ${opts.url} every ${opts.every} for ${system.id} (Ctrl-C stops)\n`);
        await new Promise<void>((resolve) => {
          const stop = (): void => void poller.stop().then(resolve);
          process.once("SIGINT", stop);
          process.once("SIGTERM", stop);
          poller.start();
        });
      });
    });

  alerts
    .command("history")
    .description("the audit log: who added, edited, imported and ended which alert, and when")
    .option("--system <id>", "only this system")
    .option("--json", "print as JSON")
    .action((_o: unknown, cmd: Command) => {
      const opts = cmd.optsWithGlobals<AlertsOptions>();
      const system = systemOf(opts.system, false);
      withStore(opts, (store) => {
        const log = store.auditLog(system);
        if (opts.json) return printJson({ db: store.file, audit: log });
        if (log.length === 0) return void process.stdout.write(`no alert changes recorded in ${store.file}\n`);
        const header = ["when (UTC)", "who", "action", "alert", "system", "detail"];
        const rows = log.map((a) => [a.at.replace("T", " ").replace(/\.\d+Z$/, ""), a.who, a.action, a.alert_id, a.system, a.detail ?? ""]);
        process.stdout.write(`${renderTable(header.map(() => ({ align: "l" as const })), header, rows)}\n`);
      });
    });
}
