// Test support (not runtime code): the read-only protocol fixtures of MODEL-PROTOCOL.md, read from
// the shared directory through test/paths.ts (never copied into the repository).
import { readFileSync } from "node:fs";
import path from "node:path";
import { PROTOCOL_DIR } from "../../../test/paths.ts";
import type { ToolDefinition } from "../../../tools/data/schemas.ts";
import type { ChatMessage } from "../../session/policy.ts";

export interface ProtocolRequest {
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  enable_thinking?: boolean;
  parallel_tool_calls?: boolean;
}

export interface ParserCase {
  build: "b8390" | "b10361";
  request: string;
  candidate: string;
  parsed: {
    role: "assistant";
    content: string;
    reasoning_content?: string;
    tool_calls?: { type: "function"; function: { name: string; arguments: string } }[];
  } | null;
  parse_error: string | null;
  grammar: string | null;
}

export function protocolRequest(name: string): ProtocolRequest {
  return JSON.parse(readFileSync(path.join(PROTOCOL_DIR, "requests", `${name}.json`), "utf8")) as ProtocolRequest;
}

export function goldenPrompt(name: string): string {
  return readFileSync(path.join(PROTOCOL_DIR, "golden-prompts", `${name}.txt`), "utf8");
}

export function parserCases(): ParserCase[] {
  return (JSON.parse(readFileSync(path.join(PROTOCOL_DIR, "parser-cases.json"), "utf8")) as { cases: ParserCase[] }).cases;
}

/** The request a parser case was probed with ("cands2" used round1's tools and thinking on). */
export function requestForCase(c: ParserCase): ProtocolRequest {
  return protocolRequest(c.request === "cands2" ? "round1" : c.request);
}
