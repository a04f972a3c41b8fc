// One vocabulary for who answered: "model" everywhere (decidedBy, answeredBy, the router's path,
// the kiosk's status, the bench report, the assistant mode); `llm` only as the policy's name.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ANSWERED_BY as REPORT_ANSWERED_BY, HYBRID_PATHS } from "../bench/report/build.ts";
import { DECIDED_BY } from "../bench/report/kiosk.ts";
import { ANSWERED_BY as AUDIT_ANSWERED_BY } from "../runtime/audit/model.ts";
import { AskResultSchema, BenchPolicyNameSchema, KioskStatusSchema } from "../runtime/kiosk/bridge.ts";
import { REPO_ROOT } from "../test/paths.ts";
import { ASSISTANT_MODES, parseAssistantMode } from "./assistant-mode.ts";

const WHO_ANSWERED = ["rule", "model", "rule-fallback"];

describe("who answered: one vocabulary", () => {
  it("is the same words in the bridge, the audit, the bench report and the kiosk verdict", () => {
    const check = AskResultSchema.shape.check.unwrap();
    expect(check.shape.decidedBy.options).toEqual(WHO_ANSWERED);
    expect([...AUDIT_ANSWERED_BY]).toEqual(WHO_ANSWERED);
    expect([...REPORT_ANSWERED_BY]).toEqual(WHO_ANSWERED);
    expect([...DECIDED_BY]).toEqual(WHO_ANSWERED);
    expect([...HYBRID_PATHS]).toEqual(["rule", "model"]);
    expect(KioskStatusSchema.shape.assistant.options).toContain("model");
    expect([...ASSISTANT_MODES]).toEqual(["hybrid", "model"]);
  });

  it("keeps llm as the policy's name only", () => {
    expect(BenchPolicyNameSchema.options).toContain("llm");
    for (const words of [WHO_ANSWERED, KioskStatusSchema.shape.assistant.options, [...ASSISTANT_MODES]]) expect(words).not.toContain("llm");
  });

  it("reads the assistant mode's old name llm as model", () => {
    expect(parseAssistantMode("model")).toBe("model");
    expect(parseAssistantMode("hybrid")).toBe("hybrid");
    expect(parseAssistantMode("llm")).toBe("model");
    expect(parseAssistantMode("rule")).toBeNull();
    expect(parseAssistantMode("")).toBeNull();
  });

  it("has no straggler in the code or the docs that says llm for who answered", () => {
    // A who-answered field or the assistant mode set to, compared with or typed as "llm".
    const code = /\b(decidedBy|decided_by|answeredBy|answered_by|path|mode|assistant)["']?\s*(?::|===?|!==?)\s*["'`]llm["'`]/;
    const docs = /--assistant\s+(?:hybrid\\?\|)?llm\b|KIOSK_ASSISTANT=llm/;
    const stragglers: string[] = [];
    const visit = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!["node_modules", "dist", "cache"].includes(entry.name)) visit(file);
          continue;
        }
        const pattern = /\.(ts|tsx)$/.test(entry.name) ? code : entry.name.endsWith(".md") ? docs : null;
        if (!pattern) continue;
        readFileSync(file, "utf8")
          .split("\n")
          .forEach((line, i) => {
            if (pattern.test(line)) stragglers.push(`${path.relative(REPO_ROOT, file)}:${i + 1}: ${line.trim()}`);
          });
      }
    };
    for (const folder of ["tools", "runtime", "models", "bench", "host", "electron", "cli", "renderer", "scripts", "docs", "test"]) visit(path.join(REPO_ROOT, folder));
    for (const file of ["README.md"]) {
      readFileSync(path.join(REPO_ROOT, file), "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (docs.test(line)) stragglers.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(stragglers).toEqual([]);
  });
});
