// Framebook checks that concern the system it is applied to: a framebook meant for another system
// (its operator's name is not this system's), and advisory severities outside the disruption
// vocabulary (`major_delay: purple` would colour no banner). Pure; called by validateFramebook.
import type { Framebook } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { DISRUPTION_SEVERITIES } from "../alerts/vocabulary.ts";

export interface FramebookCheckIssue {
  path: (string | number)[];
  message: string;
}

const norm = (s: string): string => s.trim().toLowerCase().replace(/\s+/g, " ");

/** `system` is the data pack's system (its framebook is the operator's reference). */
export function systemFramebookIssues(fb: Framebook, system: SystemData): FramebookCheckIssue[] {
  const issues: FramebookCheckIssue[] = [];
  const expected = system.framebook.org_name;
  if (norm(fb.org_name) !== norm(expected)) {
    issues.push({
      path: ["framebook", "org_name"],
      message: `org_name '${fb.org_name}' is not ${system.id}'s operator '${expected}': is this the framebook of another system?`,
    });
  }
  for (const [key, value] of Object.entries(fb.advisory_severity_mapping ?? {})) {
    if (!(DISRUPTION_SEVERITIES as readonly string[]).includes(value)) {
      issues.push({ path: ["framebook", "advisory_severity_mapping", key], message: `severity '${value}' for ${key} is not one of ${DISRUPTION_SEVERITIES.join(", ")}` });
    }
  }
  return issues;
}
