// `kiosk probe` says up front how large the synthetic model is and where it goes, then shows bytes
// written, the percentage and the time left; the measuring phase shows its step of how many.
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../test/paths.ts";
import { registerProbeCommand } from "./probe.ts";
import { probeStepText, ProgressLine, timeLeft, writingText } from "./progress.ts";

const GiB = 1024 ** 3;

function sink(isTTY: boolean): { isTTY: boolean; text: string; write(t: string): void } {
  return { isTTY, text: "", write(t) { this.text += t; } };
}

describe("progress text", () => {
  it("gives bytes written, the percentage and the time left from the rate so far", () => {
    expect(writingText("synthetic-4b", 1 * GiB, 2.5 * GiB, 20_000)).toBe("writing synthetic-4b: 1.0 GiB of 2.5 GiB (40 %) · about 30 s left");
    expect(writingText("synthetic-4b", 2.5 * GiB, 2.5 * GiB, 50_000)).toBe("writing synthetic-4b: 2.5 GiB of 2.5 GiB (100 %)");
    expect(timeLeft(125_400)).toBe("about 2 min 6 s left");
    expect(probeStepText({ step: 6, steps: 19, what: "case 2/15: MARTA-A-001 …", leftMs: 61_000 })).toBe("step 6/19 · case 2/15: MARTA-A-001 … · about 1 min 1 s left");
    expect(probeStepText({ step: 2, steps: 19, what: "loading 4b …" })).toBe("step 2/19 · loading 4b …");
  });

  it("rewrites one line on a terminal, and prints plain lines otherwise: each step, then at most one per interval", () => {
    const tty = sink(true);
    const line = new ProgressLine(tty);
    line.update("a 10 %");
    line.update("a 20 %");
    line.line("done");
    expect(tty.text).toBe("\r\x1b[Ka 10 %\r\x1b[Ka 20 %\r\x1b[Kdone\n");

    const log = sink(false);
    let t = 0;
    const plain = new ProgressLine(log, () => t, 10_000);
    plain.update("step 1", "1");
    t = 1000;
    plain.update("step 1 again", "1");
    plain.update("step 2", "2");
    t = 12_000;
    plain.update("step 2 later", "2");
    expect(log.text).toBe("step 1\nstep 2\nstep 2 later\n");
  });
});

describe("kiosk probe --model synthetic-4b", () => {
  it("says how large the model is and where it goes, then how far the writing is", async () => {
    const stderr = sink(false);
    const program = new Command("kiosk").option("--data <dir>").exitOverride();
    registerProbeCommand(program, {
      stderr,
      // A stand-in writer: the real one writes 2.5 GiB.
      ensureSynthetic: (options) => {
        options.onStart?.({ file: "/cache/qwen35-4b-random-q4km.gguf", bytes: 2.5 * GiB });
        for (const written of [0.5, 1, 1.5, 2, 2.5]) options.onProgress?.(written * GiB, 2.5 * GiB);
        return { file: "/nonexistent/qwen35-4b-random-q4km.gguf", generated: true };
      },
    });
    await expect(program.parseAsync(["--data", SHARED_DATA_DIR, "probe", "--model", "synthetic-4b", "--gpu", "off"], { from: "user" })).rejects.toThrow();
    const lines = stderr.text.split("\n");
    expect(lines[0]).toBe("synthetic-4b: writing a 2.5 GiB model with random weights (once; reused later) to /cache/qwen35-4b-random-q4km.gguf");
    expect(lines[1]).toMatch(/^writing synthetic-4b: 0\.5 GiB of 2\.5 GiB \(20 %\)( · about \d+ s left)?$/);
    expect(lines).toContain("writing synthetic-4b: 2.5 GiB of 2.5 GiB (100 %)");
    expect(lines.some((l) => /^synthetic-4b: written in /.test(l))).toBe(true);
  });
});
