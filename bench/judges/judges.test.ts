// The judge backends without a real model: the openai judge against a small HTTP server started
// here (request body, key header, retry on 429, errors, unparseable replies), a bench run with
// `--judge openai` whose judgments land in the database's cache and are not asked again, and the
// llm judge's prompt and reply handling on a stub completion backend.
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { DataPack } from "../../tools/data/datapack.ts";
import type { CompletionRequest, CompletionResult } from "../../runtime/model/backend.ts";
import { startRun } from "../run/execute.ts";
import { buildJudgeRequest, judgmentKey, type JudgeRequest } from "../scorer/index.ts";
import { BenchStore } from "../store/store.ts";
import { createJudge } from "../judges.ts";
import { judgeAnswerText, LlmJudge } from "./llm.ts";
import { OpenAiJudge } from "./openai.ts";

const pack = new DataPack(SHARED_DATA_DIR);

interface Seen {
  url: string;
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
}

/** A chat-completions server: `reply` decides each answer (status and content). */
let server: Server;
let baseUrl: string;
const seen: Seen[] = [];
let reply: (body: Record<string, unknown>, n: number) => { status: number; content?: string | null; raw?: string } = () => ({ status: 200, content: "Score: 2 | fine" });

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let data = "";
    req.on("data", (chunk: Buffer) => (data += chunk.toString("utf8")));
    req.on("end", () => {
      const body = JSON.parse(data) as Record<string, unknown>;
      seen.push({ url: req.url ?? "", headers: req.headers, body });
      const r = reply(body, seen.length);
      res.writeHead(r.status, { "Content-Type": "application/json" });
      res.end(r.raw ?? JSON.stringify(r.status >= 400 ? { error: { message: "nope" } } : { choices: [{ message: { role: "assistant", content: r.content ?? null } }] }));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.close();
  await once(server, "close");
});

const request = (text = "Message: Take the Red line."): JudgeRequest =>
  buildJudgeRequest(pack.judgeRubrics(), { caseId: "MARTA-A-001", component: "scope_adherence", rubric: "scope_adherence", fields: {}, text });

describe("judge openai", () => {
  it("sends the rubric as system + user messages with the rubric's temperature and token limit, and parses the reply", async () => {
    seen.length = 0;
    reply = () => ({ status: 200, content: "Score: 2 | Stays on transit topics" });
    const judge = new OpenAiJudge({ baseUrl, model: "judge-model", env: { OPENAI_API_KEY: "sk-test" } });
    expect(judge.id).toBe("openai:judge-model");
    const req = request();
    expect(await judge.judge(req)).toEqual({ score: 2, reason: "Stays on transit topics" });
    expect(seen).toHaveLength(1);
    const s = seen[0] as Seen;
    expect(s.url).toBe("/v1/chat/completions");
    expect(s.headers.authorization).toBe("Bearer sk-test");
    expect(s.body).toEqual({
      model: "judge-model",
      messages: [
        { role: "system", content: req.system },
        { role: "user", content: req.prompt },
      ],
      temperature: 0,
      max_completion_tokens: 150,
    });
    expect(s.body).not.toHaveProperty("tools");
  });

  it("prefers $METRO_JUDGE_API_KEY, scores an unparseable or empty reply 1, and keeps reasoning out of the answer", async () => {
    seen.length = 0;
    const replies = ["I think it is fine.", null, "<think>weighing</think>\nScore: 0 | off topic"];
    reply = (_b, n) => ({ status: 200, content: replies[n - 1] ?? "" });
    const judge = new OpenAiJudge({ baseUrl, model: "m", env: { METRO_JUDGE_API_KEY: "judge-key", OPENAI_API_KEY: "other" } });
    expect(await judge.judge(request())).toEqual({ score: 1, reason: "I think it is fine." });
    expect(await judge.judge(request())).toEqual({ score: 1, reason: "" });
    expect(await judge.judge(request())).toEqual({ score: 0, reason: "off topic" });
    expect(seen[0]?.headers.authorization).toBe("Bearer judge-key");
  });

  it("retries HTTP 429 and fails on other error statuses with the status in the message", async () => {
    seen.length = 0;
    reply = (_b, n) => (n < 3 ? { status: 429 } : { status: 200, content: "Score: 1 | partly" });
    const waits: number[] = [];
    const judge = new OpenAiJudge({ baseUrl, model: "m", env: {}, sleep: (ms) => (waits.push(ms), Promise.resolve()) });
    expect(await judge.judge(request())).toEqual({ score: 1, reason: "partly" });
    expect(waits).toEqual([1000, 2000]);
    expect(seen[0]?.headers.authorization).toBeUndefined();
    reply = () => ({ status: 500 });
    await expect(judge.judge(request())).rejects.toThrow(/judge endpoint: 500: .*nope/);
    reply = () => ({ status: 200, raw: "not json" });
    await expect(judge.judge(request())).rejects.toThrow(/not JSON/);
  });

  it("in a bench run: judged components are scored by the endpoint and every judgment is cached in the run database", async () => {
    seen.length = 0;
    reply = (body) => {
      const user = String((body.messages as { content: string }[])[1]?.content);
      return { status: 200, content: user.includes("disruption") ? "Score: 2 | mentions the disruption" : "Score: 1 | acceptable" };
    };
    const store = BenchStore.open(":memory:");
    try {
      const caseIds = ["MARTA-C-002", "MARTA-C-004"];
      const judgeOptions = { baseUrl, model: "judge-model" };
      const first = await startRun({ pack, store, policy: "rule", selection: { caseIds }, judge: "openai", judgeOptions });
      expect(first.status).toBe("finished");
      const asked = seen.length;
      expect(asked).toBeGreaterThan(0);
      const rows = store.db.prepare("SELECT key, judge, component, case_id, score FROM judgments ORDER BY key").all() as { key: string; judge: string; component: string; case_id: string; score: number }[];
      expect(rows).toHaveLength(asked);
      for (const r of rows) {
        expect(r.judge).toBe("openai:judge-model");
        expect(caseIds).toContain(r.case_id);
        expect(r.key.startsWith(`openai:judge-model|${r.component}|${r.case_id}|`)).toBe(true);
      }
      const run = store.requireRun(first.runId);
      expect(run).toMatchObject({ judge: "openai", judgeOptions, judgeSettings: { base_url: baseUrl, model: "judge-model" } });
      const advisory = store.casesWithScores(first.runId).find((c) => c.caseId === "MARTA-C-002")?.score?.breakdown["advisory_content_correct"];
      expect(advisory).toMatchObject({ code: "judged", reason: expect.stringMatching(/: mentions the disruption$/) });
      // The key is judgmentKey over the judge text: a second run asks nothing.
      const second = await startRun({ pack, store, policy: "rule", selection: { caseIds }, judge: "openai", judgeOptions });
      expect(seen.length).toBe(asked);
      expect(store.casesWithScores(second.runId).map((c) => c.tier1Pct)).toEqual(store.casesWithScores(first.runId).map((c) => c.tier1Pct));
      expect(judgmentKey("MARTA-C-002", "scope_adherence", "x", "openai:judge-model")).toMatch(/^openai:judge-model\|scope_adherence\|MARTA-C-002\|[0-9a-f]{64}$/);
    } finally {
      store.close();
    }
  });

  it("is built by the registry from --judge-base-url and --judge-model", async () => {
    const judge = await createJudge("openai", { baseUrl, model: "x" });
    expect(judge.id).toBe("openai:x");
  });
});

describe("judge llm (stub backend)", () => {
  const template = pack.chatTemplate();

  function stub(text: string): { backend: { complete(r: CompletionRequest): Promise<CompletionResult>; chatTemplate(): string }; requests: CompletionRequest[] } {
    const requests: CompletionRequest[] = [];
    return {
      requests,
      backend: {
        chatTemplate: () => template,
        complete: (r) => {
          requests.push(r);
          const usage = { promptTokens: 10, completionTokens: 5, cachedPromptTokens: 0, ttftMs: 1, prefillMs: 1, decodeMs: 1, totalMs: 2 };
          return Promise.resolve({ text, finishReason: "stop", grammarTriggered: false, usage });
        },
      },
    };
  }

  it("renders system + rubric with the model's chat template, thinking off and no tools, within the rubric's token budget", async () => {
    const { backend, requests } = stub("Score: 2 | ok");
    const judge = new LlmJudge({ backend, id: "llm:tiny|x.gguf" });
    expect(judge.id).toBe("llm:tiny_x.gguf");
    const req = request();
    expect(await judge.judge(req)).toEqual({ score: 2, reason: "ok" });
    const prompt = requests[0]?.prompt ?? "";
    expect(requests[0]).toMatchObject({ maxTokens: 150 });
    expect(requests[0]?.lazyGrammar).toBeUndefined();
    expect(prompt.startsWith(`<|im_start|>system\n${req.system}<|im_end|>\n<|im_start|>user\n${req.prompt}<|im_end|>\n<|im_start|>assistant\n`)).toBe(true);
    expect(prompt).not.toContain("<tools>");
    expect(prompt.endsWith("<think>\n\n</think>\n\n")).toBe(true);
  });

  it("scores an unparseable reply 1 and reads the answer after a think block", async () => {
    expect(await new LlmJudge({ backend: stub("gibberish tokens").backend, id: "t" }).judge(request())).toEqual({ score: 1, reason: "gibberish tokens" });
    expect(judgeAnswerText("<think>\nhmm\n</think>\n\nScore: 0 | no")).toBe("\n\nScore: 0 | no");
    expect(await new LlmJudge({ backend: stub("hmm</think>Score: 0 | no").backend, id: "t" }).judge(request())).toEqual({ score: 0, reason: "no" });
  });
});
