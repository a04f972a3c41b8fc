// The `when` conditions of the profile's system-prompt blocks, as predicates (or repetitions) on
// the prompt inputs. Tests use Python truthiness, as the reference's `if x:` does: an empty list,
// dict or string is "absent".
import type { SystemContext } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { hasKey, pyTruthy } from "../../tools/py/index.ts";
import { pyStr } from "./pystr.ts";

export interface PromptInputs {
  system: SystemData;
  context: SystemContext;
}

export type Condition =
  | { kind: "test"; test: (inputs: PromptInputs) => boolean }
  | { kind: "each"; itemPlaceholders: readonly string[]; items: (inputs: PromptInputs) => Array<Record<string, string>> };

/** dict.get(key) of a value that may not be a dict. */
function get(obj: unknown, key: string): unknown {
  return hasKey(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}

const temporal = (i: PromptInputs): unknown => get(i.context, "temporal_context");

/** Conditions by their text in the profile. */
export const CONDITIONS: Readonly<Record<string, Condition>> = {
  always: { kind: "test", test: () => true },
  "framebook.cultural_notes non-empty": { kind: "test", test: (i) => pyTruthy(get(i.system.framebook, "cultural_notes")) },
  "each cultural note": {
    kind: "each",
    itemPlaceholders: ["note"],
    items: (i) => {
      const notes = get(i.system.framebook, "cultural_notes");
      return Array.isArray(notes) ? notes.map((note) => ({ note: pyStr(note) })) : [];
    },
  },
  "framebook.operating_hours non-empty": { kind: "test", test: (i) => pyTruthy(get(i.system.framebook, "operating_hours")) },
  "system_context.temporal_context present": { kind: "test", test: (i) => pyTruthy(temporal(i)) },
  // Read only inside the temporal section in the reference: it needs the section too.
  "temporal_context.day_of_week non-empty": {
    kind: "test",
    test: (i) => pyTruthy(temporal(i)) && pyTruthy(get(temporal(i), "day_of_week")),
  },
  "temporal_context.notes non-empty": {
    kind: "test",
    test: (i) => pyTruthy(temporal(i)) && pyTruthy(get(temporal(i), "notes")),
  },
  "system_context.active_disruptions non-empty": { kind: "test", test: (i) => pyTruthy(get(i.context, "active_disruptions")) },
  "system_context.accessibility_mode truthy": { kind: "test", test: (i) => pyTruthy(get(i.context, "accessibility_mode")) },
  "system_context.policy_change present": { kind: "test", test: (i) => pyTruthy(get(i.context, "policy_change")) },
  "policies.json lists policies": { kind: "test", test: (i) => i.system.policies.length > 0 },
  "each policy": {
    kind: "each",
    itemPlaceholders: ["policy_id", "title"],
    items: (i) => i.system.policies.map((p) => ({ policy_id: pyStr(p.policy_id), title: pyStr(p.title) })),
  },
  "system_context.knowledge_query truthy": { kind: "test", test: (i) => pyTruthy(get(i.context, "knowledge_query")) },
};

export { get as pyGet };
