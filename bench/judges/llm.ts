// Judge "llm": a local GGUF in-process as the judge of the six judged Tier 2 components. Each
// judgment is one plain completion: the rubric's system instruction and filled prompt rendered
// with the model's own chat template (no tools, thinking off), greedy decoding (temperature 0),
// at most the rubric file's max_tokens (150) new tokens, and the reply parsed the reference's way
// ("Score: N | reason"; anything else scores 1). The run caches judgments in its database.
import { ChatTemplateRenderer } from "../../runtime/model/render.ts";
import type { CompletionBackend } from "../../runtime/model/backend.ts";
import type { DisposableJudge, JudgeFactory } from "../judges.ts";
import { loadLocalModel, modelSettings, type LocalModelOptions } from "../../models/local.ts";
import { parseJudgeReply, type JudgeRequest, type Judgment } from "../scorer/index.ts";

/** Context size of the judge's engine: a rubric prompt with its response text fits easily. */
export const JUDGE_CONTEXT_SIZE = 8192;

export interface LlmJudgeOptions {
  backend: CompletionBackend;
  /** Judge id in cache keys (no "|"). */
  id: string;
  /** Default: the template embedded in the model. */
  chatTemplate?: string;
  settings?: Record<string, unknown>;
  dispose?: () => void | Promise<void>;
}

/** The answer part of a reply: anything up to a closing </think> is reasoning, not the answer. */
export function judgeAnswerText(text: string): string {
  const close = text.lastIndexOf("</think>");
  const answer = close >= 0 ? text.slice(close + "</think>".length) : text;
  return answer.replace(/<\|im_end\|>[\s\S]*$/, "");
}

/** A judge id usable in judgmentKey (which splits on "|"). */
export function judgeIdPart(text: string): string {
  return text.replaceAll("|", "_");
}

export class LlmJudge implements DisposableJudge {
  readonly id: string;
  readonly settings: Record<string, unknown> | undefined;
  private renderer: ChatTemplateRenderer | undefined;

  constructor(private readonly options: LlmJudgeOptions) {
    this.id = judgeIdPart(options.id);
    this.settings = options.settings;
  }

  private template(): ChatTemplateRenderer {
    if (this.renderer) return this.renderer;
    const source = this.options.chatTemplate ?? this.options.backend.chatTemplate();
    if (!source) throw new Error("judge llm: the model has no embedded chat template (tokenizer.chat_template)");
    return (this.renderer = new ChatTemplateRenderer(source));
  }

  /** The exact prompt text the model completes for a request. */
  prompt(request: JudgeRequest): string {
    return this.template().render(
      [
        { role: "system", content: request.system },
        { role: "user", content: request.prompt },
      ],
      { enableThinking: false },
    );
  }

  async judge(request: JudgeRequest): Promise<Judgment> {
    const result = await this.options.backend.complete({ prompt: this.prompt(request), maxTokens: request.maxTokens });
    return parseJudgeReply(judgeAnswerText(result.text));
  }

  async dispose(): Promise<void> {
    await this.options.dispose?.();
  }
}

/** `--judge llm --judge-model PATH|4b [--judge-threads N]`. */
export function llmJudgeFactory(overrides: Pick<LocalModelOptions, "engine" | "gpu" | "modelsDir"> = {}): JudgeFactory {
  return {
    name: "llm",
    description: "a local GGUF in-process (--judge-model PATH or 2b/4b/9b/27b, default 4b; --judge-threads N)",
    accepts: ["model", "threads"],
    create: async (options) => {
      const loaded = await loadLocalModel({
        ...(options.model !== undefined ? { model: options.model } : {}),
        ...(options.threads !== undefined ? { threads: options.threads } : {}),
        ...(overrides.gpu !== undefined ? { gpu: overrides.gpu } : {}),
        ...(overrides.modelsDir !== undefined ? { modelsDir: overrides.modelsDir } : {}),
        engine: { contextSize: JUDGE_CONTEXT_SIZE, ...overrides.engine },
      });
      return new LlmJudge({
        backend: loaded.engine,
        id: `llm:${loaded.info.fileName}`,
        settings: { ...modelSettings(loaded.info), temperature: 0, thinking: false },
        dispose: () => loaded.engine.unload(),
      });
    },
  };
}
