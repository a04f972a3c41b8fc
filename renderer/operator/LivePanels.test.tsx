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
import { causeOf, draftAlert, draftOf, editable, where } from "./AlertsPanel.tsx";
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
    // Each changed answer in words: the trip by station name, who travelled, what changes, and why.
    const first = within(preview).getAllByRole("listitem")[0]!;
    expect(first.textContent).toMatch(/^\u2068West Oakland\u2069 → \u2068Embarcadero\u2069, 1 adult: would no longer be sold — Station closed: Embarcadero, Montgomery St/);
    expect(first.firstChild!.textContent).not.toMatch(/BART-|_/);
    // The codes stay for technicians, folded away.
    expect(within(first).getByText(A.previewDetails).closest("details")!.textContent).toContain("action prompt_purchase → display_info");

    fireEvent.click(screen.getByRole("button", { name: A.add }));
    expect(await screen.findByText(/Alert bart-station-closure-1 added/)).toBeTruthy();
    const row = document.querySelector<HTMLElement>('[data-alert="bart-station-closure-1"]')!;
    // The table names the stations (the system's data), not their ids.
    expect(row.textContent).toContain("Embarcadero, Montgomery St");
    expect(row.textContent).not.toContain("BART-EMBR");
    expect(row.textContent).toContain("2099-03-09 18:00");
    // The type in words, not its code.
    expect(row.textContent).toContain("Station closed · warning");
    expect(row.textContent).not.toContain("station_closure");
    expect(row.textContent).toContain(A.status_active);
    expect(row.textContent).toContain("Ada");
    expect(screen.getByText(A.log)).toBeTruthy();

    // Ending asks first: cancelled, nothing ends; confirmed, it ends.
    fireEvent.click(within(row).getByRole("button", { name: "End alert bart-station-closure-1" }));
    const confirm = screen.getByRole("alertdialog", { name: "End alert bart-station-closure-1" });
    expect(confirm.textContent).toContain("End “Station closed: Embarcadero, Montgomery St”?");
    fireEvent.click(within(confirm).getByRole("button", { name: en.operator.cancel }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(bridge.calls).not.toContain("endAlert bart-station-closure-1");
    fireEvent.click(within(row).getByRole("button", { name: "End alert bart-station-closure-1" }));
    fireEvent.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: en.operator.confirm }));
    expect(await screen.findByText(/Alert bart-station-closure-1 ended/)).toBeTruthy();
    await waitFor(() => expect(document.querySelector('[data-alert="bart-station-closure-1"]')!.textContent).toContain("ended by Ada"));
    expect(within(document.querySelector<HTMLElement>('[data-alert="bart-station-closure-1"]')!).queryByRole("button")).toBeNull();
    expect(bridge.calls).toEqual(expect.arrayContaining(["previewAlert", "endAlert bart-station-closure-1"]));
  });

  it("offers the alert types in words, keeping the code as the value the kiosk checks", async () => {
    await openTab("alerts");
    await screen.findByText(A.none);
    const options = [...(screen.getByLabelText(A.type) as HTMLSelectElement).options];
    expect(options.find((o) => o.value === "station_closure")!.textContent).toBe("Station closed");
    expect(options.find((o) => o.value === "line_suspension")!.textContent).toBe("Line suspended");
    expect(options.every((o) => !o.textContent!.includes("_"))).toBe(true);
  });

  it("turns the form into the alert file format the kiosk validates", () => {
    expect(draftAlert("bart", { type: "planned_maintenance", severity: "critical", lines: "yellow", stations: "", from: "West Oakland", to: "BART-EMBR", validUntil: "2026-03-10T04:00", text: { en: " Tube closed. ", es: " " }, editing: null })).toEqual({
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

  it("takes the passenger text per language of the system's screen (English required, Spanish for BART) and sends it", async () => {
    const bridge = await openTab("alerts");
    const save = vi.spyOn(bridge, "saveAlert");
    await screen.findByText(A.none);
    const spanish = screen.getByLabelText("What passengers are told (Español, optional)");
    expect(screen.queryByLabelText("What passengers are told (العربية, optional)")).toBeNull();
    fireEvent.change(screen.getByLabelText(A.stationsNeeded), { target: { value: "Embarcadero" } });
    // Spanish alone is refused: the English text is the one every screen language falls back to.
    fireEvent.change(spanish, { target: { value: "Embarcadero está cerrada." } });
    fireEvent.click(screen.getByRole("button", { name: A.add }));
    expect((await screen.findByRole("alert", { name: A.problems })).textContent).toContain("text.en: the English text is required");
    expect(screen.getByLabelText(A.text).getAttribute("aria-invalid")).toBe("true");
    expect(spanish.getAttribute("aria-invalid")).toBe("false");

    fireEvent.change(screen.getByLabelText(A.text), { target: { value: "Embarcadero is closed." } });
    fireEvent.click(screen.getByRole("button", { name: A.add }));
    expect(await screen.findByText(/Alert bart-station-closure-1 added/)).toBeTruthy();
    expect(save).toHaveBeenLastCalledWith(expect.objectContaining({ mode: "add", alert: expect.objectContaining({ stations: ["Embarcadero"], text: { en: "Embarcadero is closed.", es: "Embarcadero está cerrada." } }) }));
  });

  it("edits an active alert: the form opens filled with it (station names), saves through the edit call, audited with the operator", async () => {
    const bridge = await openTab("alerts");
    const save = vi.spyOn(bridge, "saveAlert");
    await screen.findByText(A.none);
    fireEvent.change(screen.getByLabelText(A.type), { target: { value: "planned_maintenance" } });
    // The segment's stations are suggested by name from the system's station list.
    const suggestions = document.getElementById(screen.getByLabelText(A.segmentFrom).getAttribute("list")!)!;
    expect([...suggestions.querySelectorAll("option")].map((o) => o.value)).toEqual(["West Oakland", "Embarcadero", "Montgomery St"]);
    fireEvent.change(screen.getByLabelText(A.segmentFrom), { target: { value: "BART-WOAK" } });
    fireEvent.change(screen.getByLabelText(A.segmentTo), { target: { value: "Embarcadero" } });
    fireEvent.change(screen.getByLabelText(A.validUntil), { target: { value: "2099-03-10T04:00" } });
    fireEvent.change(screen.getByLabelText(A.text), { target: { value: "Transbay Tube closed." } });
    fireEvent.click(screen.getByRole("button", { name: A.add }));
    await screen.findByText(/Alert bart-planned-maintenance-1 added/);
    const row = (): HTMLElement => document.querySelector<HTMLElement>('[data-alert="bart-planned-maintenance-1"]')!;
    expect(row().textContent).toContain("West Oakland – Embarcadero");

    fireEvent.click(within(row()).getByRole("button", { name: "Edit alert bart-planned-maintenance-1" }));
    expect(screen.getByRole("heading", { name: "Edit alert bart-planned-maintenance-1" })).toBeTruthy();
    expect((screen.getByLabelText(A.type) as HTMLSelectElement).value).toBe("planned_maintenance");
    expect((screen.getByLabelText(A.segmentFrom) as HTMLInputElement).value).toBe("West Oakland");
    expect((screen.getByLabelText(A.segmentTo) as HTMLInputElement).value).toBe("Embarcadero");
    expect((screen.getByLabelText(A.validUntil) as HTMLInputElement).value).toBe("2099-03-10T04:00");
    expect((screen.getByLabelText(A.text) as HTMLTextAreaElement).value).toBe("Transbay Tube closed.");

    fireEvent.change(screen.getByLabelText(A.text), { target: { value: "Transbay Tube closed: take the bus bridge." } });
    fireEvent.change(screen.getByLabelText("What passengers are told (Español, optional)"), { target: { value: "Tubo Transbay cerrado." } });
    fireEvent.click(screen.getByRole("button", { name: A.preview }));
    expect(await screen.findByRole("status", { name: A.previewHeading })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: A.save }));
    expect(await screen.findByText(/Alert bart-planned-maintenance-1 saved/)).toBeTruthy();
    expect(save).toHaveBeenLastCalledWith(
      expect.objectContaining({ mode: "edit", alert: expect.objectContaining({ id: "bart-planned-maintenance-1", text: { en: "Transbay Tube closed: take the bus bridge.", es: "Tubo Transbay cerrado." } }) }),
    );
    await waitFor(() => expect(row().textContent).toContain("Transbay Tube closed: take the bus bridge."));
    expect(document.querySelectorAll("[data-alert]")).toHaveLength(1);
    expect(screen.getByRole("heading", { name: A.addHeading })).toBeTruthy();
    expect(screen.getByText(A.log).parentElement!.textContent).toMatch(/Ada · edited bart-planned-maintenance-1/);
  });

  it("shows station and line names for ids, and fills the edit form with names only where they are unambiguous", () => {
    const places = { system: "bart" as const, languages: ["en", "es"], stations: [{ id: "A", name: "Alpha" }, { id: "B", name: "Twin" }, { id: "C", name: "Twin" }], lines: [{ id: "y", name: "Yellow Line" }] };
    const alert = { id: "x", system: "bart" as const, type: "station_closure" as const, severity: "critical" as const, lines: ["y"], stations: ["A", "B", "Z"], segment: null, valid_from: "2099-01-01T00:00:00", valid_until: null, text: { en: "Closed", zh: "关闭" }, alternative: "Bus 12", eta_resolution: null, source: { kind: "operator" as const } };
    expect(where(causeOf(alert, places))).toBe("Yellow Line, Alpha, Twin, Z");
    // In the operator's language where the kiosk has the name in it.
    const local = { ...places, stations: [{ id: "A", name: "Alpha", localized: { "zh-Hans": "阿尔法" } }, ...places.stations.slice(1)] };
    expect(where(causeOf(alert, local), "zh-Hans")).toBe("Yellow Line, 阿尔法, Twin, Z");
    const draft = draftOf(alert, places);
    expect(draft).toMatchObject({ lines: "Yellow Line", stations: "Alpha, B, Z", text: { en: "Closed", zh: "关闭" } });
    // What the form does not show is kept on save: the id, the start, the alternative, other languages.
    expect(draftAlert("bart", draft)).toMatchObject({ id: "x", valid_from: "2099-01-01T00:00:00", alternative: "Bus 12", text: { en: "Closed", zh: "关闭" } });
  });

  it("offers an edit of the operator's own alerts only: a feed's or the back office's would be overwritten by its source", () => {
    const alert = { id: "x", system: "bart" as const, type: "station_closure" as const, severity: "critical" as const, lines: [], stations: ["A"], segment: null, valid_from: null, valid_until: null, text: { en: "Closed" }, alternative: null, eta_resolution: null };
    expect(editable({ ...alert, source: { kind: "operator" } })).toBe(true);
    expect(editable({ ...alert, id: "gtfs:bart:1a2b3c4d:1", source: { kind: "gtfs-rt", feed: "f", entity: "1" } })).toBe(false);
    expect(editable({ ...alert, id: "bo:bart:x", source: { kind: "backoffice", id: "x" } })).toBe(false);
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

    // Opened, the timeline (drawn below the list) is scrolled to and its heading takes the focus.
    const scrolled: Element[] = [];
    const scrollIntoView = vi.spyOn(Element.prototype, "scrollIntoView").mockImplementation(function (this: Element) {
      scrolled.push(this);
    });
    fireEvent.click(await screen.findByRole("button", { name: "Open session s-demo-closed" }));
    const timeline = await screen.findByLabelText("Session s-demo-closed");
    await waitFor(() => expect(scrolled).toContain(timeline));
    expect(document.activeElement).toBe(within(timeline).getByRole("heading", { name: "Session s-demo-closed" }));
    scrollIntoView.mockRestore();
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
