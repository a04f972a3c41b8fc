// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { OperatorBridge, SystemSummary } from "../../runtime/kiosk/bridge.ts";
import { createFakeOperatorBridge, DEMO_FRAMEBOOK, type FakeOperator } from "../bridge/fakeOperator.ts";
import { OperatorBridgeError } from "../bridge/operatorBridge.ts";
import { ar } from "../i18n/ar.ts";
import { en } from "../i18n/en.ts";
import { createKioskI18n, type Language } from "../i18n/index.ts";
import { zh } from "../i18n/zh.ts";
import { ViewStoreProvider } from "../state/ViewStoreProvider.tsx";
import { createViewStore } from "../state/viewStore.ts";
import { formatDuration, formatScore, offsetOf } from "./format.ts";
import { OperatorScreen } from "./OperatorScreen.tsx";

const SYSTEMS: SystemSummary[] = [
  { id: "marta", orgName: "MARTA", fullName: "Metropolitan Atlanta Rapid Transit Authority" },
  { id: "doha", orgName: "Qatar Rail", fullName: "Doha Metro" },
];
const PIN = "135790";

afterEach(cleanup);

/** The pack's two and a network imported from a feed (listSystems marks it). */
const WITH_IMPORTED: SystemSummary[] = [...SYSTEMS.map((s) => ({ ...s, imported: false })), { id: "hyderabad", orgName: "Hyderabad Metro Rail", fullName: "Hyderabad Metro Rail Ltd.", imported: true }];

function renderScreen(bridge: OperatorBridge, options: { language?: Language; onClose?: () => void; pollMs?: number; idleMs?: number; systems?: SystemSummary[] } = {}) {
  const store = createViewStore({ language: options.language ?? "en" });
  const onClose = options.onClose ?? vi.fn();
  const view = render(
    <ViewStoreProvider store={store}>
      <I18nextProvider i18n={createKioskI18n(options.language ?? "en")}>
        <OperatorScreen bridge={bridge} systems={options.systems ?? SYSTEMS} currentSystem="marta" onClose={onClose} pollMs={options.pollMs ?? 5} {...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {})} />
      </I18nextProvider>
    </ViewStoreProvider>,
  );
  return { ...view, onClose };
}

/** The start button is disabled until the technician panel has loaded what it may run; a click before that is ignored. */
async function findEnabledStart(): Promise<HTMLButtonElement> {
  return waitFor(
    () => {
      const button = screen.getByRole("button", { name: en.operator.technician.start }) as HTMLButtonElement;
      expect(button.disabled).toBe(false);
      return button;
    },
    { timeout: 5000 },
  );
}

function typePin(pin: string): void {
  const keypad = screen.getByRole("group", { name: en.operator.login.keypad });
  for (const digit of pin) fireEvent.click(within(keypad).getByRole("button", { name: digit }));
}

async function logIn(name = "Ada"): Promise<void> {
  fireEvent.change(screen.getByLabelText(en.operator.login.name), { target: { value: name } });
  typePin(PIN);
  fireEvent.click(screen.getByRole("button", { name: en.operator.login.submit }));
  await screen.findByRole("tab", { name: en.operator.tabFramebooks });
}

describe("operator login", () => {
  it("says how many tries are left, then that the kiosk is locked; the right PIN opens the tools", async () => {
    const bridge = createFakeOperatorBridge({ pin: PIN });
    renderScreen(bridge);
    expect(screen.getByRole("heading", { name: en.operator.login.title })).toBeTruthy();
    // No name: asked for one, nothing sent.
    typePin(PIN);
    fireEvent.click(screen.getByRole("button", { name: en.operator.login.submit }));
    expect(await screen.findByText(en.operator.login.needName)).toBeTruthy();
    expect(bridge.calls).toEqual([]);
    fireEvent.change(screen.getByLabelText(en.operator.login.name), { target: { value: "Mallory" } });
    fireEvent.click(screen.getByRole("button", { name: en.operator.login.clear }));
    typePin("1111");
    fireEvent.click(screen.getByRole("button", { name: en.operator.login.submit }));
    expect(await screen.findByText("Wrong PIN. Tries left before a lockout: 2.")).toBeTruthy();
    expect((screen.getByLabelText(en.operator.login.pin) as HTMLInputElement).value).toBe("");
    await logIn("Ada Lovelace");
    expect(screen.getByText("Signed in: Ada Lovelace")).toBeTruthy();
  });

  it("locks the keypad during a lockout and explains an unconfigured PIN", async () => {
    const locked: OperatorBridge = { ...createFakeOperatorBridge({ pin: PIN }), login: async () => ({ ok: false, reason: "locked", retryAfterMs: 30_000, attemptsLeft: 0 }) };
    renderScreen(locked);
    fireEvent.change(screen.getByLabelText(en.operator.login.name), { target: { value: "Ada" } });
    typePin("2222");
    fireEvent.click(screen.getByRole("button", { name: en.operator.login.submit }));
    expect(await screen.findByText("Too many wrong PINs. Try again in 30 seconds.")).toBeTruthy();
    expect((screen.getByRole("button", { name: "5" }) as HTMLButtonElement).disabled).toBe(true);
    cleanup();
    renderScreen({ ...createFakeOperatorBridge({ pin: PIN }), login: async () => ({ ok: false, reason: "not_configured", retryAfterMs: 0, attemptsLeft: 0 }) });
    fireEvent.change(screen.getByLabelText(en.operator.login.name), { target: { value: "Ada" } });
    typePin("2222");
    fireEvent.click(screen.getByRole("button", { name: en.operator.login.submit }));
    expect(await screen.findByText(en.operator.login.notConfigured)).toBeTruthy();
  });

  it("returns to the login when the session has ended, and logs out on close", async () => {
    const fake = createFakeOperatorBridge({ pin: PIN });
    const bridge: OperatorBridge = { ...fake, framebookStatus: async () => Promise.reject(new OperatorBridgeError("unauthorized", "expired")) };
    const { onClose } = renderScreen(bridge);
    fireEvent.change(screen.getByLabelText(en.operator.login.name), { target: { value: "Ada" } });
    typePin(PIN);
    fireEvent.click(screen.getByRole("button", { name: en.operator.login.submit }));
    expect(await screen.findByText(en.operator.error.unauthorized)).toBeTruthy();
    expect(screen.getByRole("heading", { name: en.operator.login.title })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: en.operator.close }));
    expect(onClose).toHaveBeenCalled();
  });
});

describe("framebook tab", () => {
  it("shows a broken framebook's errors with line and column, marks the line and jumps to it", async () => {
    const bridge = createFakeOperatorBridge({ pin: PIN });
    renderScreen(bridge);
    await logIn();
    const editor = (await screen.findByLabelText(en.operator.framebook.editor)) as HTMLTextAreaElement;
    await waitFor(() => expect(editor.value).toBe(DEMO_FRAMEBOOK));
    const broken = DEMO_FRAMEBOOK.replace('org_name: "Demo Transit"', 'org_name: "Demo Transit');
    fireEvent.change(editor, { target: { value: broken } });
    fireEvent.click(screen.getByRole("button", { name: en.operator.framebook.check }));
    expect(await screen.findByText(en.operator.framebook.invalid)).toBeTruthy();
    const issue = document.querySelector(".op-issue")!;
    expect(issue.textContent).toContain("Line 2, column 13");
    expect(issue.textContent).toContain("invalid YAML: missing closing quote");
    expect([...document.querySelectorAll(".op-gutter-error")].map((e) => e.textContent)).toEqual(["2"]);
    expect(editor.getAttribute("aria-invalid")).toBe("true");
    expect((screen.getByRole("button", { name: en.operator.framebook.apply }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(issue as HTMLElement).getByRole("button", { name: en.operator.framebook.show }));
    expect(editor.selectionStart).toBe(offsetOf(broken, 2, 13));
    // Editing the text makes the check stale: nothing can be applied until it is checked again.
    fireEvent.change(editor, { target: { value: DEMO_FRAMEBOOK } });
    expect(document.querySelector(".op-issue")).toBeNull();
  });

  it("diffs, applies with a confirmation (audited under the operator's name) and rolls back", async () => {
    const bridge: FakeOperator = createFakeOperatorBridge({ pin: PIN, now: () => new Date("2026-03-09T14:00:00Z") });
    renderScreen(bridge);
    await logIn("Grace");
    const editor = (await screen.findByLabelText(en.operator.framebook.editor)) as HTMLTextAreaElement;
    await waitFor(() => expect(editor.value).toBe(DEMO_FRAMEBOOK));
    fireEvent.change(editor, { target: { value: DEMO_FRAMEBOOK.replace('default: "05:00-01:00"', 'default: "05:00-02:00"') } });
    fireEvent.click(screen.getByRole("button", { name: en.operator.framebook.check }));
    expect(await screen.findByText(en.operator.framebook.valid)).toBeTruthy();
    const row = document.querySelector(".op-diff tbody tr")!;
    expect(row.textContent).toBe('operating_hours.default"05:00-01:00""05:00-02:00"');
    fireEvent.click(screen.getByRole("button", { name: en.operator.framebook.apply }));
    const dialog = screen.getByRole("alertdialog");
    expect(dialog.textContent).toContain("Apply this framebook to MARTA?");
    fireEvent.click(within(dialog).getByRole("button", { name: en.operator.confirm }));
    expect(await screen.findByText(/^Applied version [0-9a-f]+\. New passenger sessions use it\.$/)).toBeTruthy();
    await waitFor(() => expect(document.querySelectorAll(".op-audit tbody tr")).toHaveLength(1));
    expect(document.querySelector(".op-audit tbody tr")!.textContent).toContain("Grace");
    expect(bridge.audit).toEqual([expect.objectContaining({ who: "Grace", action: "apply", system: "marta" })]);
    expect(screen.getByText(en.operator.framebook.sourceOperator)).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: en.operator.framebook.rollback }));
    fireEvent.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: en.operator.confirm }));
    expect(await screen.findByText(/^Rolled back to version [0-9a-f]+\.$/)).toBeTruthy();
    await waitFor(() => expect(editor.value).toBe(DEMO_FRAMEBOOK));
    expect(bridge.audit.map((a) => `${a.who} ${a.action}`)).toEqual(["Grace apply", "Grace rollback"]);
  });

  it("shows in the audit who confirmed implausible fares of an applied framebook, and why", async () => {
    const bridge = createFakeOperatorBridge({ pin: PIN });
    bridge.audit.push({ at: "2026-03-09T10:00:00.000Z", who: "Grace", system: "marta", action: "apply", version: "abc123", previous: null, fare_override: { reason: "Staff day: 95% off", confirmed_by: "Dana Reyes, fares manager" } });
    renderScreen(bridge);
    await logIn();
    expect(await screen.findByText("Fares outside the plausible range, confirmed by Dana Reyes, fares manager: Staff day: 95% off")).toBeTruthy();
  });

  it("switches systems", async () => {
    const bridge = createFakeOperatorBridge({ pin: PIN, framebooks: { doha: DEMO_FRAMEBOOK.replace("Demo Transit", "Doha Demo") } });
    renderScreen(bridge);
    await logIn();
    fireEvent.click(await screen.findByRole("radio", { name: "Qatar Rail" }));
    const editor = screen.getByLabelText(en.operator.framebook.editor) as HTMLTextAreaElement;
    await waitFor(() => expect(editor.value).toContain("Doha Demo"));
    expect(bridge.calls).toContain("framebookStatus doha");
  });
});

describe("technician tab", () => {
  it("clears the PIN lockouts someone else's wrong PINs caused, and says when there were none", async () => {
    const bridge = createFakeOperatorBridge({ pin: PIN });
    renderScreen(bridge);
    await logIn();
    // Three wrong PINs typed at another screen.
    for (const pin of ["000000", "111111", "222222"]) await bridge.login({ operator: "Mallory", pin });
    fireEvent.click(screen.getByRole("tab", { name: en.operator.tabTechnician }));
    fireEvent.click(await screen.findByRole("button", { name: en.operator.pinLockout.clear }));
    expect(await screen.findByText("Cleared the lockout of screen.")).toBeTruthy();
    expect(bridge.calls.filter((c) => c === "clearPinLockout")).toHaveLength(1);
    fireEvent.click(screen.getByRole("button", { name: en.operator.pinLockout.clear }));
    expect(await screen.findByText(en.operator.pinLockout.none)).toBeTruthy();
  });

  it("starts a run, follows per-category progress, and shows the report sandboxed", async () => {
    const bridge = createFakeOperatorBridge({ pin: PIN, casesPerCategory: 2 });
    renderScreen(bridge, { pollMs: 5 });
    await logIn();
    fireEvent.click(screen.getByRole("tab", { name: en.operator.tabTechnician }));
    await screen.findByText(en.operator.technician.latencyNoModel);
    const llm = screen.getByRole("radio", { name: /llm — local model/ }) as HTMLButtonElement;
    expect(llm.disabled).toBe(true);
    expect(llm.textContent).toContain(en.operator.technician.needsModel);
    fireEvent.click(screen.getByRole("radio", { name: en.operator.technician.category }));
    fireEvent.click(screen.getByRole("radio", { name: "C · Disruption · 2" }));
    fireEvent.click(screen.getByRole("button", { name: en.operator.technician.start }));
    await screen.findByRole("button", { name: en.operator.technician.stop });
    expect(bridge.calls).toContain("startBench rule category");
    act(() => bridge.tick());
    await waitFor(() => expect(screen.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("1"));
    expect(document.querySelector('tr[data-category="C"]')!.textContent).toMatch(/^C · Disruption1\/2/);
    act(() => bridge.tick());
    const frame = (await screen.findByTitle("Bench report of run 1")) as HTMLIFrameElement;
    expect(frame.getAttribute("sandbox")).toBe("");
    expect(frame.getAttribute("srcdoc")).toContain("MetroLLM-Bench · run 1");
    expect(screen.getByText(en.operator.technician.finished)).toBeTruthy();
    expect(screen.getByRole("button", { name: en.operator.technician.start })).toBeTruthy();
  });

  /** Log in, run a one-case-per-category bench to its end: the screen then fetches the report. */
  async function runToReport(bridge: FakeOperator): Promise<void> {
    renderScreen(bridge, { pollMs: 5 });
    await logIn();
    fireEvent.click(screen.getByRole("tab", { name: en.operator.tabTechnician }));
    fireEvent.click(await findEnabledStart());
    await screen.findByRole("button", { name: en.operator.technician.stop });
    for (let i = 0; i < 11; i++) act(() => bridge.tick());
  }

  it("says the report is loading while it is fetched, then shows it", async () => {
    const bridge = createFakeOperatorBridge({ pin: PIN, casesPerCategory: 1 });
    let release = (): void => {};
    const fetchReport = bridge.benchReport.bind(bridge);
    bridge.benchReport = (request) => new Promise((resolve) => (release = () => resolve(fetchReport(request))));
    await runToReport(bridge);
    const loading = await screen.findByText("Loading the report of run 1…");
    expect(loading.closest("[aria-busy]")!.getAttribute("aria-busy")).toBe("true");
    expect(screen.queryByTitle("Bench report of run 1")).toBeNull();
    act(() => release());
    expect(await screen.findByTitle("Bench report of run 1")).toBeTruthy();
    expect(screen.queryByText("Loading the report of run 1…")).toBeNull();
  });

  it("says clearly when the report could not be loaded", async () => {
    const bridge = createFakeOperatorBridge({ pin: PIN, casesPerCategory: 1 });
    bridge.benchReport = () => Promise.reject(new OperatorBridgeError("unavailable", "fake: report server down"));
    await runToReport(bridge);
    const alert = await screen.findByText(`The report of run 1 could not be loaded. ${en.operator.error.unavailable}`);
    expect(alert.closest('[role="alert"]')).toBeTruthy();
    expect(screen.queryByText("Loading the report of run 1…")).toBeNull();
  });

  it("stops a run on request", async () => {
    const bridge = createFakeOperatorBridge({ pin: PIN });
    renderScreen(bridge);
    await logIn();
    fireEvent.click(screen.getByRole("tab", { name: en.operator.tabTechnician }));
    fireEvent.click(await findEnabledStart());
    fireEvent.click(await screen.findByRole("button", { name: en.operator.technician.stop }));
    expect(await screen.findByText(en.operator.technician.interrupted)).toBeTruthy();
    expect(bridge.calls).toEqual(expect.arrayContaining(["startBench rule probe", "stopBench"]));
  });
});

describe("technician tab: generated cases for an imported network", () => {
  const tt = en.operator.technician;
  const generateButton = (): HTMLButtonElement => screen.getByRole("button", { name: "Generate and run cases · Hyderabad Metro Rail Ltd." }) as HTMLButtonElement;

  async function openTechnician(bridge: FakeOperator, systems: SystemSummary[] = WITH_IMPORTED): Promise<HTMLElement> {
    renderScreen(bridge, { pollMs: 5, systems });
    await logIn();
    fireEvent.click(screen.getByRole("tab", { name: en.operator.tabTechnician }));
    await findEnabledStart();
    return screen.getByRole("region", { name: tt.importedHeading });
  }

  it("offers each imported system only, with 10 per category and seed 1 to start from", async () => {
    const card = await openTechnician(createFakeOperatorBridge({ pin: PIN, importedSystems: ["hyderabad"] }));
    const rows = card.querySelectorAll("[data-system]");
    expect([...rows].map((r) => r.getAttribute("data-system"))).toEqual(["hyderabad"]);
    expect((within(card).getByLabelText(tt.perCategory) as HTMLInputElement).value).toBe("10");
    expect((within(card).getByLabelText(tt.seed) as HTMLInputElement).value).toBe("1");
    expect(card.textContent).toContain("Case files: var/generated-cases");
    // The steppers keep to the contract's range.
    fireEvent.click(within(card).getByRole("button", { name: `More · ${tt.perCategory}` }));
    expect((within(card).getByLabelText(tt.perCategory) as HTMLInputElement).value).toBe("11");
    fireEvent.change(within(card).getByLabelText(tt.perCategory), { target: { value: "50" } });
    expect((within(card).getByRole("button", { name: `More · ${tt.perCategory}` }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(card).getByLabelText(tt.seed), { target: { value: "0" } });
    expect((within(card).getByRole("button", { name: `Less · ${tt.seed}` }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("has no such card when no system is imported", async () => {
    renderScreen(createFakeOperatorBridge({ pin: PIN }), { pollMs: 5 });
    await logIn();
    fireEvent.click(screen.getByRole("tab", { name: en.operator.tabTechnician }));
    await findEnabledStart();
    expect(screen.queryByRole("region", { name: tt.importedHeading })).toBeNull();
  });

  it("says which field is wrong before sending anything", async () => {
    const bridge = createFakeOperatorBridge({ pin: PIN, importedSystems: ["hyderabad"] });
    const card = await openTechnician(bridge);
    fireEvent.change(within(card).getByLabelText(tt.perCategory), { target: { value: "0" } });
    fireEvent.change(within(card).getByLabelText(tt.seed), { target: { value: "1.5" } });
    fireEvent.click(generateButton());
    const alert = await within(card).findByRole("alert");
    expect([...alert.querySelectorAll("li")].map((li) => li.textContent)).toEqual(["Cases per category: a whole number from 1 to 50.", "Seed: a whole number from 0 to 4294967295."]);
    expect(within(card).getByLabelText(tt.perCategory).getAttribute("aria-invalid")).toBe("true");
    expect(bridge.calls.some((c) => c.startsWith("startBench"))).toBe(false);
    // Fixing the field clears its message.
    fireEvent.change(within(card).getByLabelText(tt.perCategory), { target: { value: "5" } });
    expect([...within(card).getByRole("alert").querySelectorAll("li")].map((li) => li.textContent)).toEqual(["Seed: a whole number from 0 to 4294967295."]);
  });

  it("generates and runs with the chosen policy, shows what was generated per category, then the report", async () => {
    const bridge = createFakeOperatorBridge({ pin: PIN, importedSystems: ["hyderabad"] });
    const card = await openTechnician(bridge);
    fireEvent.click(screen.getByRole("radio", { name: /rule-ref — reference baseline/ }));
    fireEvent.change(within(card).getByLabelText(tt.perCategory), { target: { value: "2" } });
    fireEvent.change(within(card).getByLabelText(tt.seed), { target: { value: "7" } });
    fireEvent.click(generateButton());
    await screen.findByRole("button", { name: tt.stop });
    expect(bridge.calls).toContain("startBench rule-ref generated hyderabad");
    expect(generateButton().disabled).toBe(true);
    const progress = document.querySelector(".op-progress")!;
    expect(progress.textContent).toContain("Generated for Hyderabad Metro Rail Ltd. · 2 per category · seed 7");
    const generated = [...document.querySelectorAll("tr[data-generated-category]")];
    expect(generated).toHaveLength(11);
    expect(document.querySelector('tr[data-generated-category="A"]')!.textContent).toBe("A · Routing2 of 2");
    expect(document.querySelector('tr[data-generated-category="E"]')!.textContent).toMatch(/^E · Cultural0 of 2Skipped: cultural questions/);
    // Running scores for the categories that have cases only.
    expect(document.querySelectorAll(".op-categories-table tbody tr")).toHaveLength(9);
    for (let i = 0; i < 18; i++) act(() => bridge.tick());
    expect(await screen.findByTitle("Bench report of run 1")).toBeTruthy();
    expect(screen.getByText(tt.finished)).toBeTruthy();
  });

  it("shows the kiosk's own words when it refuses", async () => {
    // The screen lists the system as imported, the kiosk does not run it (any more).
    const card = await openTechnician(createFakeOperatorBridge({ pin: PIN, importedSystems: [] }));
    fireEvent.click(generateButton());
    expect((await within(card).findByRole("alert")).textContent).toBe("The kiosk refused: 'hyderabad' is not an imported system of this kiosk.");
    expect(screen.queryByRole("button", { name: tt.stop })).toBeNull();
  });
});

describe("walk-away protection", () => {
  it("closes the tools after the idle time, but not while the technician watches a run", async () => {
    const bridge = createFakeOperatorBridge({ pin: PIN });
    // Long enough that a loaded CI machine finishes each step inside it; the wait below outlasts it.
    const { onClose } = renderScreen(bridge, { idleMs: 2000 });
    // Touches (pointerdown) restart the walk-away timer; clicks in this test are not touches.
    const touch = (): boolean => fireEvent.pointerDown(document.body);
    await logIn();
    touch();
    fireEvent.click(screen.getByRole("tab", { name: en.operator.tabTechnician }));
    const start = await findEnabledStart();
    touch();
    fireEvent.click(start);
    touch();
    await screen.findByRole("button", { name: en.operator.technician.stop });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: en.operator.technician.stop }));
    await screen.findByText(en.operator.technician.interrupted);
    await waitFor(() => expect(onClose).toHaveBeenCalled(), { timeout: 5000 });
  });
});

describe("languages", () => {
  it.each([["zh-Hans", zh], ["ar", ar]] as const)("renders the login and tools in %s", async (language, catalog) => {
    renderScreen(createFakeOperatorBridge({ pin: PIN }), { language });
    expect(screen.getByRole("heading", { name: catalog.operator.login.title })).toBeTruthy();
    fireEvent.change(screen.getByLabelText(catalog.operator.login.name), { target: { value: "Ada" } });
    const keypad = screen.getByRole("group", { name: catalog.operator.login.keypad });
    for (const digit of PIN) fireEvent.click(within(keypad).getByRole("button", { name: digit }));
    fireEvent.click(screen.getByRole("button", { name: catalog.operator.login.submit }));
    expect(await screen.findByRole("tab", { name: catalog.operator.tabTechnician })).toBeTruthy();
    expect(screen.getByRole("heading", { name: catalog.operator.framebook.heading })).toBeTruthy();
  });
});

describe("operator formatting helpers", () => {
  it("formats durations, scores and editor offsets", () => {
    expect(formatDuration(0)).toBe("0:00");
    expect(formatDuration(61_400)).toBe("1:01");
    expect(formatDuration(3_725_000)).toBe("1:02:05");
    expect(formatScore(93.25)).toBe("93.3");
    expect(formatScore(null)).toBe("–");
    expect(formatScore(Number.NaN, "n/a")).toBe("n/a");
    const text = "ab\ncdef\ng";
    expect(offsetOf(text, 1, 1)).toBe(0);
    expect(offsetOf(text, 2, 3)).toBe(5);
    expect(offsetOf(text, 2, 99)).toBe(7);
    expect(offsetOf(text, 9, 1)).toBe(text.length);
  });
});
