// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { SimulatedClock } from "xstate";
import type { AskResult } from "../../runtime/kiosk/bridge.ts";
import { DEMO_BEIJING, DEMO_DOHA, DEMO_MARTA } from "../bridge/demoSystems.ts";
import { createFakeBridge, type FakeBridge } from "../bridge/fakeBridge.ts";
import { ar } from "../i18n/ar.ts";
import { en } from "../i18n/en.ts";
import { es } from "../i18n/es.ts";
import { zh } from "../i18n/zh.ts";
import { zhHant } from "../i18n/zhHant.ts";
import { createViewStore } from "../state/viewStore.ts";
import { askResult, deferred, readyState } from "../test/fixtures.ts";
import { KioskApp, type KioskAppProps } from "./KioskApp.tsx";

afterEach(() => {
  cleanup();
  document.documentElement.removeAttribute("dir");
  document.documentElement.removeAttribute("lang");
});

function renderApp(bridge: FakeBridge, props: Partial<KioskAppProps> = {}) {
  const store = props.store ?? createViewStore();
  const view = render(<KioskApp bridge={bridge} store={store} {...props} />);
  return { ...view, store };
}

async function start(): Promise<void> {
  fireEvent.click(await screen.findByRole("button", { name: en.attract.touchToStart }));
  await screen.findByRole("heading", { level: 1, name: en.journey.title });
}

async function chooseStation(field: "From" | "To", query: string, option: RegExp): Promise<void> {
  fireEvent.click(screen.getByRole("button", { name: new RegExp(`^${field} ?:`) }));
  fireEvent.change(screen.getByLabelText(en.picker.search, { selector: "input" }), { target: { value: query } });
  fireEvent.click(await screen.findByRole("button", { name: option }));
}

const html = document.documentElement;

describe("KioskApp: a passenger buys a ticket", () => {
  it("attract → journey → working → result → payment → ticket → reset", async () => {
    const bridge = createFakeBridge({ systems: [DEMO_MARTA], now: () => new Date("2026-03-09T14:00:00Z") });
    const { store } = renderApp(bridge);
    expect(await screen.findByRole("heading", { level: 1, name: en.attract.title })).toBeTruthy();
    await start();

    const find = () => screen.getByRole("button", { name: en.journey.find }) as HTMLButtonElement;
    expect(find().disabled).toBe(true);
    await chooseStation("From", "airp", /^Select Airport/);
    await chooseStation("To", "midt", /^Select Midtown/);
    fireEvent.click(screen.getByRole("button", { name: `Add one: ${en.riderType.children}` }));
    fireEvent.click(screen.getByRole("radio", { name: "Breeze Card" }));
    fireEvent.click(find());

    expect(await screen.findByRole("heading", { level: 1, name: en.outcome.route_and_fare_ready })).toBeTruthy();
    expect(bridge.calls.ask[0]).toEqual({
      system: "marta",
      events: [
        { type: "station_selected", field: "origin", value: "Airport", station_id: "M-AP" },
        { type: "station_selected", field: "destination", value: "Midtown", station_id: "M-MT" },
        { type: "passenger_count_changed", adults: 1, children: 1 },
        { type: "payment_method_selected", method: "breeze_card" },
      ],
      language: "en",
    });
    expect(screen.getByTestId("fare-total").textContent).toBe("$3.75");

    fireEvent.click(screen.getByRole("button", { name: /Buy tickets · \$3\.75/ }));
    expect(await screen.findByRole("heading", { level: 1, name: en.payment.title })).toBeTruthy();
    // The one summary the passenger confirms by paying (issue 13): from, to, riders, total.
    const summary = (field: string): string | null | undefined => document.querySelector(`.purchase-summary [data-field="${field}"] dd`)?.textContent;
    expect([summary("to"), summary("riders"), summary("total")]).toEqual(["Midtown", "1 adult and 1 child", "$3.75"]);
    expect(screen.getByRole("radio", { name: "Breeze Card" }).getAttribute("aria-checked")).toBe("true");
    fireEvent.click(screen.getByRole("button", { name: "Pay $3.75" }));

    expect(await screen.findByRole("heading", { level: 1, name: en.ticket.title })).toBeTruthy();
    const qr = screen.getByRole("img", { name: /QR code of ticket TKT-FAKE-1-/ });
    expect(qr.getAttribute("data-value")).toMatch(/^TKT-FAKE-1-\d{4}$/);
    expect(qr.querySelector("path")?.getAttribute("d")?.length).toBeGreaterThan(100);
    expect(screen.getByText("1 adult and 1 child")).toBeTruthy();
    // The purchase names its attempt (a retry gets the same ticket) and the summary the passenger confirmed.
    expect(bridge.calls.purchase).toEqual([{ sessionId: "fake-1", paymentMethod: "breeze_card", requestId: expect.stringMatching(/^[A-Za-z0-9_-]{8,64}$/), confirmation: "demo-fake-1" }]);

    fireEvent.click(screen.getByRole("button", { name: en.ticket.done }));
    expect(await screen.findByRole("heading", { level: 1, name: en.attract.title })).toBeTruthy();
    expect(bridge.calls.endSession).toEqual(["fake-1"]);
    expect(store.getState().journey.origin).toBeNull();
    expect(store.getState().asked).toBeNull();
  });

  it("shows the assistant's tool steps while it works, then the answer in the chat", async () => {
    const answer = deferred<AskResult>();
    const bridge = createFakeBridge({ systems: [DEMO_MARTA], answer: () => answer.promise });
    renderApp(bridge);
    await start();
    fireEvent.click(screen.getByRole("button", { name: new RegExp(en.chat.placeholder) }));
    const box = screen.getByRole("textbox", { name: en.chat.title });
    fireEvent.change(box, { target: { value: "Can I bring my bike" } });
    const keyboard = screen.getByRole("group", { name: en.keyboard.label });
    fireEvent.click(within(keyboard).getByRole("button", { name: "?" }));
    fireEvent.click(within(keyboard).getByRole("button", { name: en.chat.send }));

    expect(await screen.findByRole("heading", { level: 1, name: en.working.title })).toBeTruthy();
    // The counter was never touched: only the words go.
    expect(bridge.calls.ask[0]?.events).toEqual([{ type: "freetext_input", text: "Can I bring my bike?" }]);
    expect(screen.getByText(en.working.started)).toBeTruthy();
    act(() => {
      bridge.emitProgress({ type: "tool_started", sessionId: "s-1", name: "knowledge_base" });
      bridge.emitProgress({ type: "tool_finished", sessionId: "s-1", name: "knowledge_base", ok: true });
      bridge.emitProgress({ type: "tool_started", sessionId: "s-1", name: "route_planner" });
      bridge.emitProgress({ type: "tool_started", sessionId: "s-1", name: "mystery_tool" });
    });
    const steps = screen.getByRole("list", { name: en.working.steps });
    expect([...steps.querySelectorAll("li")].map((li) => [li.getAttribute("data-tool"), li.className])).toEqual([
      ["knowledge_base", "step step-done"],
      ["route_planner", "step step-running"],
      ["mystery_tool", "step step-running"],
    ]);
    expect(within(steps).getByText(en.tool.knowledge_base)).toBeTruthy();
    expect(within(steps).getByText(en.tool.other)).toBeTruthy();

    answer.resolve(askResult({ outcome: "policy_answer_only", kiosk_action: { action: "display_info", reason_code: "ok" }, assistant_message: "Folded bikes only." }));
    expect(await screen.findByRole("heading", { level: 1, name: en.outcome.policy_answer_only })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: en.chat.followUp }));
    expect(await screen.findByText("Can I bring my bike?")).toBeTruthy();
    expect(screen.getByText("Folded bikes only.")).toBeTruthy();
    expect(screen.getByRole("textbox", { name: en.chat.title })).toBeTruthy();
  });

  it("a declined payment says so and issues no ticket", async () => {
    const bridge = createFakeBridge({
      systems: [DEMO_MARTA],
      answer: () => askResult(readyState()),
      purchase: () => ({ ok: false, reason: "payment_declined", message: "declined" }),
    });
    renderApp(bridge);
    await start();
    fireEvent.click(screen.getByRole("button", { name: new RegExp(en.chat.placeholder) }));
    fireEvent.change(screen.getByRole("textbox", { name: en.chat.title }), { target: { value: "Airport to Midtown" } });
    fireEvent.click(screen.getByRole("button", { name: en.journey.find }));
    fireEvent.click(await screen.findByRole("button", { name: /Buy tickets/ }));
    fireEvent.click(await screen.findByRole("radio", { name: "Contactless payment" }));
    fireEvent.click(screen.getByRole("button", { name: "Pay $5.75" }));
    expect(await screen.findByRole("heading", { level: 1, name: en.payment.failedTitle })).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toContain(en.purchaseFailure.payment_declined);
    expect(screen.queryByRole("img", { name: /QR code/ })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: en.payment.retry }));
    expect(await screen.findByRole("button", { name: "Pay $5.75" })).toBeTruthy();
  });

  it("shows a typed failure when the assistant cannot be reached", async () => {
    const bridge = createFakeBridge({ systems: [DEMO_MARTA], failures: { ask: "network" } });
    renderApp(bridge);
    await start();
    await chooseStation("From", "five", /^Select Five Points/);
    await chooseStation("To", "decatur", /^Select Decatur/);
    fireEvent.click(screen.getByRole("button", { name: en.journey.find }));
    expect((await screen.findByRole("alert")).textContent).toContain(en.failure.network);
  });

  it("refuses passengers while a bench run is in progress", async () => {
    renderApp(createFakeBridge({ systems: [DEMO_MARTA], status: { assistant: "model", benchRunning: true, message: "bench" } }));
    expect(await screen.findByText(en.attract.outOfService)).toBeTruthy();
    expect(screen.queryByRole("button", { name: en.attract.touchToStart })).toBeNull();
  });

  it("swaps origin and destination; Escape closes the station picker", async () => {
    const { store } = renderApp(createFakeBridge({ systems: [DEMO_MARTA] }));
    await start();
    await chooseStation("From", "airport", /^Select Airport/);
    fireEvent.click(screen.getByRole("button", { name: en.journey.swap }));
    expect(store.getState().journey).toMatchObject({ origin: null, destination: "M-AP" });
    expect(screen.getByRole("button", { name: /^To ?: ?Airport$/ })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: /^From ?:/ }));
    expect(screen.getByRole("heading", { name: en.picker.origin })).toBeTruthy();
    fireEvent.keyDown(document, { key: "Escape" });
    expect(await screen.findByRole("heading", { level: 1, name: en.journey.title })).toBeTruthy();
    expect(document.title).toBe(en.attract.title);
  });
});

describe("KioskApp: languages and display modes", () => {
  it("switches to Arabic (rtl) and Chinese, setting <html dir lang>, from any screen", async () => {
    renderApp(createFakeBridge({ systems: [DEMO_MARTA] }));
    await start();
    fireEvent.click(screen.getByRole("button", { name: "العربية" }));
    expect(html.getAttribute("dir")).toBe("rtl");
    expect(html.getAttribute("lang")).toBe("ar");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(ar.journey.title);
    expect(screen.getByRole("button", { name: ar.journey.find })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "简体中文" }));
    expect(html.getAttribute("dir")).toBe("ltr");
    expect(html.getAttribute("lang")).toBe("zh-Hans");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(zh.journey.title);
    expect(screen.getByRole("button", { name: zh.common.startOver })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "繁體中文" }));
    expect(html.getAttribute("lang")).toBe("zh-Hant");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(zhHant.journey.title);
    fireEvent.click(screen.getByRole("button", { name: "Español" }));
    expect(html.getAttribute("lang")).toBe("es");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(es.journey.title);
  });

  it("starts in the system's primary language when the screen has it", async () => {
    renderApp(createFakeBridge({ systems: [DEMO_BEIJING] }));
    expect(await screen.findByRole("heading", { level: 1, name: zh.attract.title })).toBeTruthy();
    expect(html.getAttribute("lang")).toBe("zh-Hans");
  });

  it("toggles high contrast (7:1 palette) and large text", async () => {
    renderApp(createFakeBridge({ systems: [DEMO_MARTA] }));
    await screen.findByRole("button", { name: en.attract.touchToStart });
    expect(html.dataset.contrast).toBe("standard");
    const contrast = screen.getByRole("button", { name: en.common.highContrast });
    fireEvent.click(contrast);
    expect(contrast.getAttribute("aria-pressed")).toBe("true");
    expect(html.dataset.contrast).toBe("high");
    expect(html.style.getPropertyValue("--color-bg")).toBe("#000000");
    const large = screen.getByRole("button", { name: en.common.largeText });
    fireEvent.click(large);
    expect(html.dataset.text).toBe("large");
    fireEvent.click(large);
    expect(html.dataset.text).toBe("standard");
  });
});

describe("KioskApp: station search by local names", () => {
  it("finds Beijing stations by their Chinese names", async () => {
    const { store } = renderApp(createFakeBridge({ systems: [DEMO_BEIJING] }), { store: createViewStore() });
    fireEvent.click(await screen.findByRole("button", { name: zh.attract.touchToStart }));
    fireEvent.click(await screen.findByRole("button", { name: new RegExp(`^${zh.journey.from}`) }));
    fireEvent.change(screen.getByLabelText(zh.picker.search, { selector: "input" }), { target: { value: "西直门" } });
    fireEvent.click(await screen.findByRole("button", { name: /^选择 西直门 \(Xizhimen/ }));
    expect(store.getState().journey.origin).toBe("B-XZM");
  });

  it("types Chinese with pinyin on the on-screen keyboard: candidates, more candidates, live pinyin search", async () => {
    const { store } = renderApp(createFakeBridge({ systems: [DEMO_BEIJING] }));
    fireEvent.click(await screen.findByRole("button", { name: zh.attract.touchToStart }));
    fireEvent.click(await screen.findByRole("button", { name: new RegExp(`^${zh.journey.from}`) }));
    const keyboard = screen.getByRole("group", { name: zh.keyboard.label });
    expect(keyboard.getAttribute("data-layout")).toBe("pinyin");
    const press = (keys: string): void => {
      for (const key of keys) fireEvent.click(within(keyboard).getByRole("button", { name: key }));
    };
    const search = () => (screen.getByLabelText(zh.picker.search, { selector: "input" }) as HTMLInputElement).value;
    press("xizhimen");
    // The pinyin being typed already finds the station by its (pinyin) English name.
    expect(screen.getByRole("button", { name: /^选择 西直门 \(Xizhimen/ })).toBeTruthy();
    expect(within(keyboard).getByText("xi'zhi'men")).toBeTruthy();
    fireEvent.click(within(keyboard).getByRole("button", { name: "西" }));
    expect(search()).toBe("西");
    expect(within(keyboard).queryByRole("button", { name: "直" })).toBeNull();
    fireEvent.click(within(keyboard).getByRole("button", { name: zh.keyboard.moreCandidates }));
    fireEvent.click(within(keyboard).getByRole("button", { name: "直" }));
    fireEvent.click(within(keyboard).getByRole("button", { name: "门" }));
    expect(search()).toBe("西直门");
    // Space takes the first candidate; Delete takes back a letter, then a character.
    press("bei");
    fireEvent.click(within(keyboard).getByRole("button", { name: zh.keyboard.space }));
    expect(search()).toBe("西直门北");
    fireEvent.click(within(keyboard).getByRole("button", { name: zh.keyboard.backspace }));
    expect(search()).toBe("西直门");
    fireEvent.click(screen.getByRole("button", { name: /^选择 西直门 \(Xizhimen/ }));
    expect(store.getState().journey.origin).toBe("B-XZM");
    // The Chinese screen names the station in Chinese first.
    expect(screen.getByRole("button", { name: new RegExp(`^${zh.journey.from} ?: ?西直门 ?Xizhimen`) }).querySelector("bdi")?.textContent).toBe("西直门");
  });

  it("finds stations by Arabic names typed on the Arabic on-screen keyboard", async () => {
    const { store } = renderApp(createFakeBridge({ systems: [DEMO_DOHA] }));
    await start();
    fireEvent.click(screen.getByRole("button", { name: "العربية" }));
    fireEvent.click(screen.getByRole("button", { name: new RegExp(`^${ar.journey.to} ?:`) }));
    const keyboard = screen.getByRole("group", { name: ar.keyboard.label });
    expect(keyboard.getAttribute("data-layout")).toBe("arabic");
    for (const key of "مشيرب") fireEvent.click(within(keyboard).getByRole("button", { name: key }));
    expect((screen.getByLabelText(ar.picker.search, { selector: "input" }) as HTMLInputElement).value).toBe("مشيرب");
    expect(screen.getByText(ar.picker.results_one)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: /Msheireb \(مشيرب/ }));
    expect(store.getState().journey.destination).toBe("D-MSH");
    expect(screen.getByText("مشيرب")).toBeTruthy();
  });
});

describe("KioskApp: idle warning and reset (simulated clock)", () => {
  it("warns after 60 s with a 30 s countdown, continues on touch, and resets after the countdown", async () => {
    const clock = new SimulatedClock();
    const bridge = createFakeBridge({ systems: [DEMO_MARTA] });
    const { store } = renderApp(bridge, { clock });
    await start();
    fireEvent.click(screen.getByRole("button", { name: "العربية" }));
    fireEvent.click(screen.getByRole("button", { name: new RegExp(`^${ar.common.highContrast}`) }));
    fireEvent.click(screen.getByRole("button", { name: new RegExp(`^${ar.journey.from} ?:`) }));
    fireEvent.click(await screen.findByRole("button", { name: /^اختيار Airport/ }));

    act(() => clock.increment(60_000));
    const dialog = await screen.findByRole("alertdialog");
    expect(within(dialog).getByText(ar.idle.title)).toBeTruthy();
    expect(within(dialog).getByText("ستتم إعادة ضبط الشاشة خلال 30 ثانية.")).toBeTruthy();
    act(() => clock.increment(1_000));
    expect(within(dialog).getByText("ستتم إعادة ضبط الشاشة خلال 29 ثانية.")).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: ar.idle.continue }));
    expect(screen.queryByRole("alertdialog")).toBeNull();

    act(() => clock.increment(60_000));
    expect(await screen.findByRole("alertdialog")).toBeTruthy();
    for (let s = 0; s < 30; s++) act(() => clock.increment(1_000));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(await screen.findByRole("heading", { level: 1, name: en.attract.title })).toBeTruthy();
    expect(store.getState()).toMatchObject({ language: "en", highContrast: false, journey: { origin: null } });
    expect(html.getAttribute("dir")).toBe("ltr");
  });
});

describe("KioskApp: frame", () => {
  it("has the language switcher on every screen and start over once a session is open", async () => {
    renderApp(createFakeBridge({ systems: [DEMO_MARTA] }));
    await screen.findByRole("button", { name: en.attract.touchToStart });
    expect(screen.getByRole("group", { name: en.language.label })).toBeTruthy();
    expect(screen.queryByRole("button", { name: en.common.startOver })).toBeNull();
    await start();
    expect(screen.getByRole("group", { name: en.language.label })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: en.common.startOver }));
    expect(await screen.findByRole("heading", { level: 1, name: en.attract.title })).toBeTruthy();
  });
});
