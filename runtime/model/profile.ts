// The llama-server builds the paper used, as named protocol profiles (MODEL-PROTOCOL.md §3).
// b8642 (default): generic autoparser, one call, required args first in schema order, lazy grammar
// triggered by "<tool_call>\n". b10398: Qwen3-Coder handler, parallel calls, any argument order,
// triggers "<tool_call>" and "<function", reasoning also ends at a tool call.
// v0.4.0: the llama-server we can build here (llama.cpp v0.4.0, the source node-llama-cpp 3.21.1
// ships; its common/chat.cpp read directly): the Qwen3-Coder handler for a thinking template — the
// trigger is the `<tool_call>` token only, required arguments in any order but all present, then
// optional ones, "</function>\n</tool_call>" exactly; reasoning ends at "</think>" or "<tool_call>".
// Used for serving parity against that server (bench/parity/).

export type ProtocolProfile = "b8642" | "b10398" | "v0.4.0";
export const PROTOCOL_PROFILES: readonly ProtocolProfile[] = ["b8642", "b10398", "v0.4.0"];
export const DEFAULT_PROFILE: ProtocolProfile = "b8642";

export interface ProfileSettings {
  profile: ProtocolProfile;
  /** Lazy-grammar trigger words, matched anywhere in the generated text. */
  triggers: readonly string[];
  /** llama-server's parallel_tool_calls default for this template. */
  parallelToolCalls: boolean;
}

export function profileSettings(profile: ProtocolProfile = DEFAULT_PROFILE, parallelToolCalls?: boolean): ProfileSettings {
  if (profile === "b10398") {
    return { profile, triggers: ["<tool_call>", "<function"], parallelToolCalls: parallelToolCalls ?? true };
  }
  if (profile === "v0.4.0") return { profile, triggers: ["<tool_call>"], parallelToolCalls: parallelToolCalls ?? true };
  return { profile, triggers: ["<tool_call>\n"], parallelToolCalls: parallelToolCalls ?? false };
}

export function isProtocolProfile(value: string): value is ProtocolProfile {
  return (PROTOCOL_PROFILES as readonly string[]).includes(value);
}
