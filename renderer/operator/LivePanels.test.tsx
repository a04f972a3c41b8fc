// @vitest-environment happy-dom
// The operator screen's Service alerts and Session audit tabs, against the fake operator bridge.
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SystemSummary } from "../../runtime/kiosk/bridge.ts";
import { createFakeOperatorBridge, type FakeOperator } from "../bridge/fakeOperator.ts";
import { en } from "../i18n/en.ts";
import { createKioskI18n } from "../i18n/index.ts";
import { ViewStoreProvider } from "../state/ViewStoreProvider.tsx";
import { createViewStore } from "../state/viewStore.ts";
import { draftAlert } from "./AlertsPanel.tsx";
import { OperatorScreen, type OperatorTab } from "./OperatorScreen.tsx";

const SYSTEMS: SystemSummary[] = [{ id: "bart", orgName: "BART", fullName: "Bay Area Rapid Transit" }];
const PIN = "135790";
const A = en.operator.alerts;
const U = en.operator.audit;

afterEach(cleanup);

async function openTab(tab: OperatorTab): Promise<FakeOperator> {
  const bridge = createFakeOperatorBridge({ pin: PIN });
  render(
    <ViewStoreProvider store={createViewStore({ language: "en" })}>
      <I18nextProvider i18n={createKioskI18n("en")}>
        <OperatorScreen bridge={bridge} systems={SYSTEMS} currentSystem="bart" onClose={vi.fn()} initialTab={tab} />
      </I18nextProvider>
    </ViewStoreProvider>,
  );
  fireEvent.change(screen.getByLabelText(en.operator.login.name), { target: { value: "Ada" } });
  const keypad = screen.getByRole("group", { name: en.operator.login.keypad });
  for (const digit of PIN) fireEvent.click(within(keypad).getByRole("button", { name: digit }));
  fireEvent.click(screen.getByRole("button", { name: en.operator.login.submit }));
  await screen.findByRole("tab", { name: tab === "alerts" ? A.tab : U.tab, selected: true });
  return bridge;
}

describe("the Service alerts tab", () => {
  it("adds a closure from the form (errors name the field), lists it with who added it, previews, and ends it", async () => {
    const bridge = await openTab("alerts");
    expect(await screen.findByText(A.none)).toBeTruthy();
    // A station closure without stations: the kiosk names the field, and the field is marked.
    fireEvent.click(screen.getByRole("button", { name: A.add }));
    const problems = await screen.findByRole("alert", { name: A.problems });
    expect(problems.textContent).toContain("stations: a station_closure names the station(s) it concerns");
    expect(problems.textContent).toContain("text: at least one language's text is needed");
    expect(screen.getByLabelText(A.stationsNeeded).getAttribute("aria-invalid")).toBe("true");
    expect(bridge.calls).toContain("saveAlert add");

    fireEvent.change(screen.getByLabelText(A.stationsNeeded), { target: { value: "BART-EMBR, Montgomery St" } });
    fireEvent.change(screen.getByLabelText(A.validUntil), { target: { value: "2099-03-09T18:00" } });
    fireEvent.change(screen.getByLabelText(A.text), { target: { value: "Embarcadero is closed (police activity)." } });
    fireEvent.click(screen.getByRole("button", { name: A.preview }));
    const preview = await screen.findByRole("status", { name: A.previewHeading });
    expect(preview.textContent).toMatch(/With this alert, 2 of 2 stored answers would change \(sessions replayed: 2\)\./);
    expect(preview.textContent).toContain("action prompt_purchase → display_info");

    fireEvent.click(screen.getByRole("button", { name: A.add }));
    expect(await screen.findByText(/Alert bart-station-closure-1 added/)).toBeTruthy();
    const row = document.querySelector<HTMLElement>('[data-alert="bart-station-closure-1"]')!;
    expect(row.textContent).toContain("BART-EMBR, Montgomery St");
    expect(row.textContent).toContain("2099-03-09 18:00");
    expect(row.textContent).toContain(A.status_active);
    expect(row.textContent).toContain("Ada");
    expect(screen.getByText(A.log)).toBeTruthy();

    fireEvent.click(within(row).getByRole("button", { name: "End alert bart-station-closure-1" }));
    expect(await screen.findByText(/Alert bart-station-closure-1 ended/)).toBeTruthy();
    await waitFor(() => expect(document.querySelector('[data-alert="bart-station-closure-1"]')!.textContent).toContain("ended by Ada"));
    expect(within(document.querySelector<HTMLElement>('[data-alert="bart-station-closure-1"]')!).queryByRole("button")).toBeNull();
    expect(bridge.calls).toEqual(expect.arrayContaining(["previewAlert", "endAlert bart-station-closure-1"]));
  });

  it("turns the form into the alert file format the kiosk validates", () => {
    expect(draftAlert("bart", { type: "planned_maintenance", severity: "critical", lines: "yellow", stations: "", from: "West Oakland", to: "BART-EMBR", validUntil: "2026-03-10T04:00", text: " Tube closed. " })).toEqual({
      system: "bart",
      type: "planned_maintenance",
      severity: "critical",
      lines: ["yellow"],
      stations: [],
      segment: { from_station: "West Oakland", to_station: "BART-EMBR" },
      valid_until: "2026-03-10T04:00",
      text: { en: "Tube closed." },
    });
  });
});

describe("the Session audit tab", () => {
  it("lists today's sessions with filter chips and opens one as a timeline: asked, tools, shown, why buy was off", async () => {
    const bridge = await openTab("audit");
    const table = await screen.findByRole("table", { name: U.sessions });
    expect(within(table).getAllByRole("row")).toHaveLength(3);
    fireEvent.change(screen.getByLabelText(U.language), { target: { value: "es" } });
    await waitFor(() => expect(within(screen.getByRole("table", { name: U.sessions })).getAllByRole("row")).toHaveLength(2));
    expect(bridge.calls).toContain('auditSessions {"language":"es"}');
    fireEvent.change(screen.getByLabelText(U.language), { target: { value: "" } });
    const chip = screen.getByRole("button", { name: U.only_refused });
    fireEvent.click(chip);
    expect(chip.getAttribute("aria-pressed")).toBe("true");
    expect(await screen.findByText(U.none)).toBeTruthy();
    fireEvent.click(chip);

    fireEvent.click(await screen.findByRole("button", { name: "Open session s-demo-closed" }));
    const timeline = await screen.findByLabelText("Session s-demo-closed");
    const entries = [...timeline.querySelectorAll<HTMLElement>("[data-kind]")];
    expect(entries.map((e) => e.dataset.kind)).toEqual(["asked", "tool", "tool", "shown", "buy"]);
    expect(entries[0]!.textContent).toContain("From: West Oakland (BART-WOAK)");
    expect(entries[1]!.textContent).toContain("tube (planned_maintenance, critical)");
    expect(entries[3]!.textContent).toContain("Transbay Tube closed");
    expect(entries[4]!.dataset.ok).toBe("false");
    expect(entries[4]!.textContent).toContain("Buy button off");
    expect(entries[4]!.textContent).toContain("because of no service");
  });
});
