// Prompt builder rules: optional blocks, user-message formats, multi-turn cases and profile checks.
// Expected text is taken from the profile itself (never restated here) where it is prose.
import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import type { Case, KioskEvent, PromptProfile, SystemContext } from "../../tools/data/schemas.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { buildCasePrompt, buildSystemPrompt, eventsToUserMessage, fareRules, PromptProfileError, toolDefinitions } from "./index.ts";
import { fillTemplate } from "./profile.ts";

const pack = new DataPack(SHARED_DATA_DIR);
const profile = pack.promptProfile();
const marta = pack.system("marta");
const doha = pack.system("doha");
const beijing = pack.system("beijing");

interface Block {
  id: string;
  when: string;
  text: string;
}
const blocks = (profile as { system_prompt: Block[] }).system_prompt;
const blockText = (id: string): string => {
  const block = blocks.find((b) => b.id === id);
  if (!block) throw new Error(`no block ${id} in the profile`);
  return block.text;
};
/** The first line of a block that starts a section (e.g. its "## …" header). */
const header = (id: string): string => blockText(id).split("\n").find((l) => l.trim() !== "") ?? "";

const BASE: SystemContext = { current_time: "2026-04-06T14:00:00", active_disruptions: [], framebook: "marta" };

function withProfile(mutate: (p: { system_prompt: Block[]; user_message: Record<string, unknown> }) => void): PromptProfile {
  const copy = structuredClone(profile) as { system_prompt: Block[]; user_message: Record<string, unknown> };
  mutate(copy);
  return copy as unknown as PromptProfile;
}

describe("system prompt blocks", () => {
  it("renders the always-on blocks and leaves every optional block out of a plain context", () => {
    const prompt = buildSystemPrompt(marta, BASE, profile);
    expect(prompt.startsWith(blockText("header").split("{")[0] ?? "")).toBe(true);
    expect(prompt).toContain(blockText("role_workflow_rules").split("{")[0]);
    expect(prompt).toContain(header("service_hours"));
    expect(prompt).toContain(header("policies_header"));
    for (const id of ["temporal_header", "disruption", "accessibility", "policy_update_header", "knowledge_base", "cultural_notes_header"]) {
      expect(prompt, id).not.toContain(header(id));
    }
    expect(prompt.endsWith("\n")).toBe(true);
  });

  it.each([
    ["disruption", { active_disruptions: [{ type: "line_closure", severity: "high" }] }],
    ["accessibility", { accessibility_mode: true }],
    ["knowledge_base", { knowledge_query: true }],
  ] as const)("emits the %s block when the context asks for it", (id, extra) => {
    const on = buildSystemPrompt(marta, { ...BASE, ...extra } as SystemContext, profile);
    expect(on).toContain(blockText(id));
    expect(buildSystemPrompt(marta, BASE, profile)).not.toContain(blockText(id));
  });

  it("uses Python truthiness for conditions (false, {} and [] are absent)", () => {
    const ctx = { ...BASE, accessibility_mode: false, policy_change: {} as never, temporal_context: null, knowledge_query: 0 } as SystemContext;
    expect(buildSystemPrompt(marta, ctx, profile)).toBe(buildSystemPrompt(marta, BASE, profile));
  });

  it("renders the temporal section with optional day and notes", () => {
    const full = buildSystemPrompt(
      marta,
      { ...BASE, temporal_context: { current_time: "2026-04-06T23:50:00", day_of_week: "Sunday", notes: "Last trains soon" } },
      profile,
    );
    expect(full).toContain(header("temporal_header"));
    expect(full).toContain("2026-04-06T23:50:00\n");
    expect(full).toContain("Sunday\n");
    expect(full).toContain("- Last trains soon\n");
    expect(full).toContain(blockText("temporal_footer"));
    const bare = buildSystemPrompt(marta, { ...BASE, temporal_context: { current_time: "2026-04-06T23:50:00", day_of_week: "" } }, profile);
    expect(bare).toContain("2026-04-06T23:50:00\n");
    expect(bare).not.toContain("Sunday");
    expect(bare.indexOf(blockText("temporal_footer"))).toBe(bare.indexOf("2026-04-06T23:50:00\n") + "2026-04-06T23:50:00\n".length);
  });

  it("never renders system_context.current_time", () => {
    const prompt = buildSystemPrompt(marta, { ...BASE, current_time: "1999-12-31T23:59:59" }, profile);
    expect(prompt).not.toContain("1999-12-31");
  });

  it("renders the policy update text between its header and footer", () => {
    const prompt = buildSystemPrompt(marta, { ...BASE, policy_change: { policy_id: "X", text: "Fares are free today." } }, profile);
    const start = prompt.indexOf(blockText("policy_update_header"));
    expect(start).toBeGreaterThan(0);
    expect(prompt.slice(start + blockText("policy_update_header").length)).toMatch(/^Fares are free today\.\n\n/);
    expect(prompt).toContain(blockText("policy_update_footer"));
  });

  it("lists cultural notes only for systems that have them (marta has none)", () => {
    expect(buildSystemPrompt(marta, BASE, profile)).not.toContain(header("cultural_notes_header"));
    const prompt = buildSystemPrompt(doha, BASE, profile);
    expect(prompt).toContain(header("cultural_notes_header"));
    for (const note of doha.framebook.cultural_notes) expect(prompt).toContain(`- ${note}\n`);
  });

  it("lists every policy in file order", () => {
    const prompt = buildSystemPrompt(marta, BASE, profile);
    let at = 0;
    for (const p of marta.policies) {
      const next = prompt.indexOf(`- [${p.policy_id}] ${p.title}\n`, at);
      expect(next, p.policy_id).toBeGreaterThan(at);
      at = next;
    }
  });

  it("builds the fare rules as the reference does (Python floats, base fare text, gold class, ASCII escapes)", () => {
    const rules = fareRules(marta);
    expect(Object.keys(rules)).toEqual(["model", "base_fare", "currency", "format", "payment", "discounts", "payment_methods"]);
    expect(rules.base_fare).toBe("$2.5");
    expect(buildSystemPrompt(marta, BASE, profile)).toContain('"children": {"fare": 0.0, "max_per_adult": 2');
    expect(fareRules(doha).gold_class).toEqual({ fare: "QR10", card: doha.framebook.terminology.smartcard_premium });
    expect(buildSystemPrompt(beijing, BASE, profile)).toContain('"base_fare": "\\u00a53"');
  });
});

describe("user messages", () => {
  const msg = (events: unknown[]) => eventsToUserMessage(events as KioskEvent[], profile);

  it("renders one line per event, joined without a trailing newline", () => {
    expect(
      msg([
        { type: "station_selected", field: "origin", value: "Airport" },
        { type: "station_selected", field: "destination", value: "Five Points" },
        { type: "passenger_count_changed", adults: 2, children: 1 },
        { type: "freetext_input", text: "I need step-free access" },
      ]),
    ).toBe("Origin: Airport\nDestination: Five Points\nPassengers: 2 adults, 1 children\nI need step-free access");
  });

  it("title-cases payment methods after replacing underscores", () => {
    expect(msg([{ type: "payment_method_selected", method: "gold_travel_card" }])).toBe("Payment method: Gold Travel Card");
    expect(msg([{ type: "payment_method_selected", method: "easycard" }])).toBe("Payment method: Easycard");
    expect(msg([{ type: "payment_method_selected", method: "mobile_PAY" }])).toBe("Payment method: Mobile Pay");
  });

  it("keeps negative counts, drops zero and absent ones, and keeps the plural keys", () => {
    expect(msg([{ type: "passenger_count_changed", adults: -1 }])).toBe("Passengers: -1 adults");
    expect(msg([{ type: "passenger_count_changed", adults: 1, children: 0, seniors: 2, disabled: 1 }])).toBe("Passengers: 1 adults, 2 seniors, 1 disabled");
    expect(msg([{ type: "passenger_count_changed", disabled: 3, adults: 1 }])).toBe("Passengers: 1 adults, 3 disabled");
    expect(msg([{ type: "passenger_count_changed" }])).toBe("Passengers: ");
    expect(msg([{ type: "passenger_count_changed", adults: 0, children: 0 }])).toBe("Passengers: ");
  });

  it("alerts disruptions, with the profile's default text when there is no message", () => {
    const def = (profile as { user_message: { disruption_update_default_message: string } }).user_message.disruption_update_default_message;
    expect(msg([{ type: "disruption_update", disruption: { message: "Red line suspended" } }])).toMatch(/Red line suspended$/);
    const noMessage = msg([{ type: "disruption_update", disruption: { type: "delay" } }]);
    expect(noMessage.endsWith(def)).toBe(true);
    expect(msg([{ type: "disruption_update" }])).toBe(noMessage);
    expect(msg([{ type: "disruption_update", disruption: null }])).toBe(noMessage);
  });

  it("skips unknown event types", () => {
    expect(
      msg([
        { type: "station_selected", field: "origin", value: "Airport" },
        { type: "screen_tapped", x: 3 },
        { foo: 1 },
        { type: "freetext_input", text: "hello" },
      ]),
    ).toBe("Origin: Airport\nhello");
    expect(msg([])).toBe("");
  });
});

describe("case prompts", () => {
  it("builds one user message per turn for multi-turn cases, from the turns (not events)", () => {
    const kase = pack.cases("marta").find((c) => c.id === "MARTA-G-015") as Case;
    const prompt = buildCasePrompt(kase, marta, profile);
    expect(prompt.userTurns).toHaveLength(kase.multi_turn_events?.length ?? 0);
    expect(prompt.userTurns[0]).toBe(eventsToUserMessage(kase.multi_turn_events?.[0] ?? [], profile));
    expect(prompt.userTurns.at(-1)).toBe("Payment method: Contactless");
  });

  it("builds a single user message from events otherwise", () => {
    const kase = pack.cases("marta")[0] as Case;
    const prompt = buildCasePrompt(kase, marta, profile);
    expect(prompt.userTurns).toEqual([eventsToUserMessage(kase.events, profile)]);
    expect(prompt.systemPrompt).toBe(buildSystemPrompt(marta, kase.system_context, profile));
  });

  it("refuses a case of another system", () => {
    const kase = pack.cases("doha")[0] as Case;
    expect(() => buildCasePrompt(kase, marta, profile)).toThrow(/belongs to system 'doha'/);
  });

  it("shares one frozen copy of the tool definitions (no session can alter them)", () => {
    const tools = toolDefinitions(pack);
    expect(toolDefinitions(pack)).toBe(tools);
    expect(() => (tools as unknown as unknown[]).pop()).toThrow(TypeError);
    expect(() => {
      (tools[0] as { function: { name: string } }).function.name = "x";
    }).toThrow(TypeError);
    expect(toolDefinitions(pack)).toHaveLength(7);
  });
});

describe("profile checks", () => {
  it("fails clearly on an unknown block id", () => {
    const bad = withProfile((p) => p.system_prompt.splice(3, 0, { id: "loyalty_points", when: "always", text: "- Earn points\n" }));
    expect(() => buildSystemPrompt(marta, BASE, bad)).toThrow(PromptProfileError);
    expect(() => buildSystemPrompt(marta, BASE, bad)).toThrow(/block 'loyalty_points': unknown block id/);
  });

  it("fails clearly on an unknown condition, even when it would be false", () => {
    const bad = withProfile((p) => {
      const block = p.system_prompt.find((b) => b.id === "knowledge_base");
      if (block) block.when = "system_context.loyalty_mode truthy";
    });
    expect(() => buildSystemPrompt(marta, BASE, bad)).toThrow(/unknown condition 'system_context.loyalty_mode truthy'/);
  });

  it("fails clearly on an unknown placeholder", () => {
    const bad = withProfile((p) => {
      const block = p.system_prompt.find((b) => b.id === "language");
      if (block) block.text = "- Respond in {response_language}\n";
    });
    expect(() => buildSystemPrompt(marta, BASE, bad)).toThrow(/block 'language': unknown placeholder \{response_language\}/);
  });

  it("fails clearly on an unknown user-message key or a missing one", () => {
    const extra = withProfile((p) => (p.user_message.qr_scanned = "QR: {code}"));
    expect(() => eventsToUserMessage([], extra)).toThrow(/user_message.qr_scanned: unknown user-message key/);
    const missing = withProfile((p) => delete p.user_message.freetext_input);
    expect(() => eventsToUserMessage([], missing)).toThrow(/missing 'freetext_input'/);
  });

  it("follows the profile's text and order (the prose is data)", () => {
    const reordered = withProfile((p) => {
      const language = p.system_prompt.findIndex((b) => b.id === "language");
      const [block] = p.system_prompt.splice(language, 1);
      if (block) p.system_prompt.push({ ...block, text: "- Answer in {primary_language}.\n" });
    });
    expect(buildSystemPrompt(marta, BASE, reordered).endsWith("- Answer in en.\n")).toBe(true);
  });
});

describe("fillTemplate", () => {
  it("fills placeholders from a repeated block's item before the prompt's values, and names a missing one", () => {
    const values = { name: "prompt", lazy: () => "computed" };
    expect(fillTemplate("{name}/{lazy}", values, "here")).toBe("prompt/computed");
    expect(fillTemplate("{name}/{lazy}/{id}", values, "here", { name: "item", id: "7" })).toBe("item/computed/7");
    expect(() => fillTemplate("{missing}", values, "block 'x'", { id: "7" })).toThrow("block 'x': no value for placeholder {missing}");
  });
});
