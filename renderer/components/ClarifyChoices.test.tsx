// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AskResult } from "../../runtime/kiosk/bridge.ts";
import { DEMO_BEIJING, DEMO_MARTA } from "../bridge/demoSystems.ts";
import { en } from "../i18n/en.ts";
import { es } from "../i18n/es.ts";
import { emptyJourney, journeyEvents, journeyWithChoice } from "../lib/askDraft.ts";
import { choiceAsk, ResultView } from "../screens/ResultScreen.tsx";
import { createViewStore } from "../state/viewStore.ts";
import { askResult, readyState } from "../test/fixtures.ts";
import { renderWithProviders } from "../test/render.tsx";

afterEach(cleanup);

const [FIRST, SECOND] = DEMO_MARTA.stations;
const question = (over: Partial<NonNullable<AskResult["clarification"]>> = {}): AskResult =>
  askResult(
    { outcome: "policy_answer_only", kiosk_action: { action: "display_info", reason_code: "ok" }, assistant_message: "Which station do you want to go to?" },
    {
      purchasable: false,
      clarification: {
        kind: "station",
        question: "Which station do you want to go to?",
        choices: [
          { label: FIRST!.name, events: [{ type: "station_selected", field: "destination", value: FIRST!.name, station_id: FIRST!.id }] },
          { label: SECOND!.name, events: [{ type: "station_selected", field: "destination", value: SECOND!.name, station_id: SECOND!.id }] },
        ],
        ...over,
      },
    },
  );

function show(result: AskResult, options: Parameters<typeof renderWithProviders>[1] = {}) {
  const handlers = { onPurchase: vi.fn(), onEdit: vi.fn(), onFinish: vi.fn(), onFollowUp: vi.fn(), onChoose: vi.fn(), onChooseOnScreen: vi.fn() };
  renderWithProviders(<ResultView system={DEMO_MARTA} result={result} {...handlers} />, options);
  return handlers;
}

describe("the assistant's question with tappable choices", () => {
  it("shows each choice as a button; a tap hands over that choice", () => {
    const handlers = show(question());
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(en.clarify.title);
    // The question and its answers come before the way out ("Finish").
    const order = [screen.getByRole("group", { name: en.clarify.choices }), screen.getByRole("button", { name: en.result.done })];
    expect(order[0]!.compareDocumentPosition(order[1]!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const group = screen.getByRole("group", { name: en.clarify.choices });
    const buttons = within(group).getAllByRole("button");
    expect(buttons.map((b) => b.textContent)).toEqual([FIRST!.name, SECOND!.name]);
    fireEvent.click(buttons[1]!);
    expect(handlers.onChoose).toHaveBeenCalledOnce();
    expect(handlers.onChoose.mock.calls[0]![0].events[0]).toMatchObject({ station_id: SECOND!.id });
  });

  it("a question without a short list (where do you start?) opens the station picker for that field", () => {
    const handlers = show(question({ kind: "origin", choices: [], select: "origin" }), { language: "es" });
    fireEvent.click(screen.getByRole("button", { name: es.clarify.chooseOnScreen }));
    expect(handlers.onChooseOnScreen).toHaveBeenCalledWith("origin");
  });

  it("'who is travelling?' offers the reading as a button and the passenger counter", () => {
    const reading = { type: "passenger_count_changed" as const, adults: 0, children: 2, seniors: 0, disabled: 0 };
    const handlers = show(question({ kind: "riders", question: "Who is travelling?", choices: [{ label: "2 children", events: [reading] }], select: "riders" }));
    const group = screen.getByRole("group", { name: en.clarify.choices });
    expect(within(group).getAllByRole("button").map((b) => b.textContent)).toEqual(["2 children", en.clarify.setPassengers]);
    fireEvent.click(screen.getByRole("button", { name: en.clarify.setPassengers }));
    expect(handlers.onChooseOnScreen).toHaveBeenCalledWith("riders");
  });

  it("keeps the choices disabled while a provisional answer is being checked", () => {
    const handlers = { onPurchase: vi.fn(), onEdit: vi.fn(), onFinish: vi.fn(), onFollowUp: vi.fn(), onChoose: vi.fn(), onChooseOnScreen: vi.fn() };
    renderWithProviders(<ResultView system={DEMO_MARTA} result={question()} checking {...handlers} />);
    const button = screen.getByRole("button", { name: FIRST!.name }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
  });

  it("a question is not 'information only': no info screen, and 'Finish' is only the way out", () => {
    show(question());
    expect(screen.queryByText(en.result.infoTitle)).toBeNull();
    expect(screen.getByRole("button", { name: en.result.done }).className).toContain("button-secondary");
  });

  it("a shown trip sold once confirmed: the confirmation takes the buy button's place, never a greyed Buy", () => {
    const confirm = { label: "Please confirm: Airport to Midtown for 1 adult.", events: [{ type: "station_selected" as const, field: "origin" as const, value: FIRST!.name, station_id: FIRST!.id }] };
    const handlers = show(askResult(readyState(), { purchasable: false, clarification: { kind: "confirm", question: confirm.label, choices: [confirm] } }));
    expect(screen.queryByRole("button", { name: /^Buy tickets/ })).toBeNull();
    expect(screen.queryByText(en.result.notPurchasable)).toBeNull();
    // Once, as the primary action (not also as a choice above).
    expect(screen.getAllByRole("button", { name: confirm.label })).toHaveLength(1);
    expect(screen.getByText(en.result.confirmToBuy)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: confirm.label }));
    expect(handlers.onChoose).toHaveBeenCalledWith(confirm);
  });

  it("shows no choices when the assistant asked nothing", () => {
    show(askResult({ outcome: "policy_answer_only", kiosk_action: { action: "display_info", reason_code: "ok" }, assistant_message: "Hello" }));
    expect(screen.queryByRole("group", { name: en.clarify.choices })).toBeNull();
  });
});

describe("a tapped choice becomes the journey and the next ask", () => {
  it("the choice's station and riders fill the journey, so a later follow-up does not resend or undo them", () => {
    const journey = { ...emptyJourney(), origin: FIRST!.id, freetext: "to the airport" };
    const events = [
      { type: "station_selected" as const, field: "destination" as const, value: SECOND!.name, station_id: SECOND!.id },
      { type: "passenger_count_changed" as const, adults: 2, children: 1 },
    ];
    const next = journeyWithChoice(journey, events);
    expect(next).toMatchObject({ origin: FIRST!.id, destination: SECOND!.id, passengers: { adults: 2, children: 1, seniors: 0 }, freetext: "" });
    expect(journeyEvents(DEMO_MARTA, next, next)).toEqual([]);

    const store = createViewStore();
    store.getState().applyChoice(events);
    expect(store.getState().journey.destination).toBe(SECOND!.id);
    expect(store.getState().asked).toEqual(store.getState().journey);
  });

  it("the ask carries exactly the choice's events in the screen's language", () => {
    const choice = question().clarification!.choices[0]!;
    expect(choiceAsk(DEMO_MARTA, choice, "es", true)).toEqual({ system: DEMO_MARTA.id, events: choice.events, language: "es", accessibilityMode: true });
  });
});

describe("a station choice on a screen in another language than the question's", () => {
  it("shows the station's name as the screen writes it above the question's words (typed in English on a Chinese screen)", () => {
    const [a, b] = DEMO_BEIJING.stations;
    const result = askResult(
      { outcome: "policy_answer_only", kiosk_action: { action: "display_info", reason_code: "ok" }, assistant_message: `Which station do you want to go to: ${a!.name} or ${b!.name}?` },
      {
        purchasable: false,
        clarification: {
          kind: "station",
          question: `Which station do you want to go to: ${a!.name} or ${b!.name}?`,
          choices: [a!, b!].map((s) => ({ label: s.name, events: [{ type: "station_selected" as const, field: "destination" as const, value: s.name, station_id: s.id }] })),
        },
      },
    );
    const handlers = { onPurchase: vi.fn(), onEdit: vi.fn(), onFinish: vi.fn(), onFollowUp: vi.fn(), onChoose: vi.fn(), onChooseOnScreen: vi.fn() };
    renderWithProviders(<ResultView system={DEMO_BEIJING} result={result} {...handlers} />, { language: "zh-Hans" });
    const group = screen.getByRole("group");
    const buttons = within(group).getAllByRole("button");
    expect(buttons[0]?.textContent).toBe(`${a!.localNames[0]}${a!.name}`);
    expect(buttons[1]?.textContent).toBe(`${b!.localNames[0]}${b!.name}`);
    // On an English screen the label alone: nothing to add.
    cleanup();
    renderWithProviders(<ResultView system={DEMO_BEIJING} result={result} {...handlers} />, { language: "en" });
    expect(within(screen.getByRole("group")).getAllByRole("button")[0]?.textContent).toBe(a!.name);
  });
});

