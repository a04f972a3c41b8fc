// Progress of a long command on stderr: on a terminal one line rewritten in place; otherwise (a
// log file, CI) plain lines, one per step and at most one per `everyMs` within a step.
import type { ProbeProgress } from "../bench/probe/probe.ts";
import { formatBytes } from "../bench/report/table.ts";

export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

export class ProgressLine {
  private lastAt = -Infinity;
  private lastKey: string | null = null;
  private open = false;

  constructor(
    private readonly stream: ProgressStream,
    private readonly now: () => number = Date.now,
    private readonly everyMs = 10_000,
  ) {}

  /** A new `key` (the next step) always prints; the same key prints on a plain stream every `everyMs`. */
  update(text: string, key = ""): void {
    if (this.stream.isTTY === true) {
      this.stream.write(`\r\x1b[K${text}`);
      this.open = true;
      return;
    }
    const t = this.now();
    if (key === this.lastKey && t - this.lastAt < this.everyMs) return;
    this.lastKey = key;
    this.lastAt = t;
    this.stream.write(`${text}\n`);
  }

  /** A line that stays (it replaces the updating line on a terminal). */
  line(text: string): void {
    this.clear();
    this.stream.write(`${text}\n`);
  }

  clear(): void {
    if (!this.open) return;
    this.stream.write("\r\x1b[K");
    this.open = false;
  }
}

/** "about 1 min 20 s left"; rounded up to whole seconds. */
export function timeLeft(ms: number): string {
  const s = Math.max(1, Math.ceil(ms / 1000));
  return `about ${s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`} left`;
}

/** "writing synthetic-4b: 1.2 GiB of 2.5 GiB (48 %) · about 40 s left" (the rate so far, extrapolated). */
export function writingText(name: string, written: number, total: number, elapsedMs: number): string {
  const pct = total > 0 ? Math.floor((100 * written) / total) : 100;
  const left = written > 0 && written < total ? ` · ${timeLeft((elapsedMs / written) * (total - written))}` : "";
  return `writing ${name}: ${formatBytes(written)} of ${formatBytes(total)} (${pct} %)${left}`;
}

/** "step 6/19 · case 2/15: MARTA-A-001 … · about 3 min 5 s left" */
export function probeStepText(p: ProbeProgress): string {
  return `step ${p.step}/${p.steps} · ${p.what}${p.leftMs !== undefined ? ` · ${timeLeft(p.leftMs)}` : ""}`;
}
