// Figure: 1,000 follow-ups in one passenger session (issue 13, finding 6 and part 3). The review
// grew one session by 229 follow-ups of 60 KB: RSS 143 → 692 MB, one ask blocking the event loop
// 782 ms. Here the follow-ups (seeded, 100 B to 60 KB of typed text each) go to one session of a
// KioskApp on the rule policy; the session's bounds (runtime/kiosk/limits.ts) refuse what would take
// it past its turn or byte cap, with the passenger's message. Printed: accepted and refused
// follow-ups, RSS growth, and ask latency (p50, p99, max — refusals included).
import type { DataPack } from "../../tools/data/datapack.ts";
import { KioskApp, KioskLimitError } from "../../runtime/kiosk/app.ts";
import { Ledger } from "../../runtime/kiosk/node/ledger.ts";
import { packExtras } from "../../runtime/kiosk/node/pack-extras.ts";
import { SimulatedPaymentTerminal } from "../../runtime/kiosk/payment.ts";
import { figure, info, ms, percentile, Rng, type RunOptions, type SectionResult } from "./common.ts";

export async function sessionGrowth(pack: DataPack, options: RunOptions): Promise<SectionResult> {
  const t0 = performance.now();
  const rng = new Rng(`${options.seed}:growth`);
  const followUps = options.quick ? 300 : 1000;
  const ledger = Ledger.open(":memory:");
  const app = new KioskApp({ pack, extras: packExtras(pack), ledger, payment: new SimulatedPaymentTerminal(), clock: () => new Date(2026, 2, 9, 14, 0, 0), log: () => undefined });
  const first = await app.ask({ system: "marta", events: [{ type: "station_selected", field: "origin", value: "Airport", station_id: "MARTA-AP" }, { type: "station_selected", field: "destination", value: "Five Points", station_id: "MARTA-FP" }] });
  globalThis.gc?.();
  const rss0 = process.memoryUsage().rss;
  let rssMax = rss0;
  const times: number[] = [];
  let accepted = 0;
  let refused = 0;
  let otherErrors = 0;
  let refusalMessage = "";
  for (let i = 0; i < followUps; i++) {
    const size = rng.chance(0.5) ? rng.range(100, 2_000) : rng.range(20_000, 60_000);
    const text = `How about another stop? ${"Five Points ".repeat(Math.ceil(size / 12))}`.slice(0, size);
    const a0 = performance.now();
    try {
      await app.ask({ system: "marta", sessionId: first.sessionId, events: [{ type: "freetext_input", text }] });
      accepted++;
    } catch (err) {
      if (err instanceof KioskLimitError) {
        refused++;
        refusalMessage = err.message;
      } else otherErrors++;
    }
    times.push(performance.now() - a0);
    if (i % 50 === 0) rssMax = Math.max(rssMax, process.memoryUsage().rss);
  }
  rssMax = Math.max(rssMax, process.memoryUsage().rss);
  app.endSession(first.sessionId);
  ledger.close();
  const growthMb = (rssMax - rss0) / 2 ** 20;
  return {
    id: "growth",
    title: "One session, many follow-ups",
    figures: [
      info("growth.followups", "follow-ups sent to one session", followUps, { of: `${accepted} answered, ${refused} refused (session full)` }),
      figure("growth.rss_mb", "RSS growth", ms(growthMb), { op: "le", value: 64 }, { unit: "MB", of: `from ${Math.round(rss0 / 2 ** 20)} MB` }),
      figure("growth.p99_ms", "ask latency p99", ms(percentile(times, 99)), { op: "le", value: 500 }, { unit: "ms", of: `p50 ${ms(percentile(times, 50))} ms` }),
      info("growth.max_ms", "slowest ask (event loop blocked at most)", ms(Math.max(...times)), { unit: "ms" }),
      figure("growth.errors", "follow-ups failing other than with the session-full message", otherErrors, { op: "eq", value: 0 }),
    ],
    details: { refusalMessage, accepted, refused },
    ms: performance.now() - t0,
  };
}
