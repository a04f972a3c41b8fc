import { describe, expect, it } from "vitest";
import { testPack } from "../kiosk/testing.ts";
import { validateAlertsContent } from "./content.ts";

describe("an alerts publication whose words stop service where the kiosk cannot map it", () => {
  const bart = testPack().system("bart");
  const vague = (extra = ""): string =>
    `- id: police\n  system: bart\n  type: major_delay\n  severity: critical\n  text: {en: "Due to police activity, trains will stop running in the affected area until further notice."}\n${extra}`;
  const now = { now: "2026-03-09T08:00" };

  it("is not signed by the back office until the publisher decides what it does to the trips it may touch", () => {
    const refused = validateAlertsContent(vague(), "alerts.yaml", "bart", bart, { requireDecisions: now });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.issues).toHaveLength(1);
    expect(refused.issues[0]).toMatchObject({ file: "alerts.yaml", line: 5, field: "[0].text" });
    expect(refused.issues[0]?.message).toContain("decide with if_unread: refer | block | ignore");
    for (const decision of ["refer", "block", "ignore"]) {
      const decided = validateAlertsContent(vague(`  if_unread: ${decision}\n`), "alerts.yaml", "bart", bart, { requireDecisions: now });
      expect(decided.ok && decided.alerts[0]?.if_unread).toBe(decision);
    }
    expect(validateAlertsContent(vague("  if_unread: maybe\n"), "alerts.yaml", "bart", bart, { requireDecisions: now }).ok).toBe(false);
  });

  it("is applied by a kiosk all the same (unconfirmed, it refers only the trips it may touch)", () => {
    expect(validateAlertsContent(vague(), "alerts.yaml", "bart", bart).ok).toBe(true);
  });

  it("a readable alert needs no decision", () => {
    const closure = `- id: embr\n  system: bart\n  type: station_closure\n  stations: [Embarcadero]\n  text: {en: "Embarcadero station closed."}\n`;
    expect(validateAlertsContent(closure, "alerts.yaml", "bart", bart, { requireDecisions: now }).ok).toBe(true);
  });
});
