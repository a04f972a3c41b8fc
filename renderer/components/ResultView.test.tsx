// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AskResult } from "../../runtime/kiosk/bridge.ts";
import { DEMO_BEIJING, DEMO_DOHA, DEMO_MARTA } from "../bridge/demoSystems.ts";
import { en } from "../i18n/en.ts";
import type { AssistantState } from "../lib/types.ts";
import { ResultView } from "../screens/ResultScreen.tsx";
import { askResult, FARE, readyState, ROUTE } from "../test/fixtures.ts";
import { fakeSpeaker, renderWithProviders } from "../test/render.tsx";

afterEach(cleanup);

const OUTCOMES = ["route_and_fare_ready", "advisory_only", "service_unavailable", "request_declined", "policy_answer_only"] as const;
const ACTIONS = ["prompt_purchase", "block_purchase", "display_info", "refer_to_staff"] as const;

function stateFor(outcome: AssistantState["outcome"], action: AssistantState["kiosk_action"]["action"]): AssistantState {
  const state: AssistantState = {
    outcome,
    kiosk_action: { action, reason_code: action === "block_purchase" ? "no_service" : action === "refer_to_staff" ? "policy_exception" : "ok" },
    assistant_message: `Answer for ${outcome} / ${action}`,
  };
  if (outcome === "route_and_fare_ready" || outcome === "advisory_only") state.route = ROUTE;
  if (outcome === "route_and_fare_ready") state.fare_quote = FARE;
  return state;
}

function show(result: AskResult, system = DEMO_MARTA, options: Parameters<typeof renderWithProviders>[1] = {}) {
  const handlers = { onPurchase: vi.fn(), onEdit: vi.fn(), onFinish: vi.fn(), onFollowUp: vi.fn() };
  const view = renderWithProviders(<ResultView system={system} result={result} {...handlers} />, options);
  return { ...view, handlers };
}

const buyButton = () => screen.queryByRole("button", { name: /Buy tickets/ });

describe("ResultView: every outcome × kiosk action", () => {
  const cases = OUTCOMES.flatMap((outcome) => ACTIONS.map((action) => [outcome, action] as const));
  it.each(cases)("%s + %s", (outcome, action) => {
    const result = askResult(stateFor(outcome, action));
    const { container, handlers } = show(result);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(en.outcome[outcome]);
    expect(container.querySelector(".result")?.getAttribute("data-outcome")).toBe(outcome);
    expect(container.querySelector(".action")?.getAttribute("data-action")).toBe(action);
    expect(screen.getByText(`Answer for ${outcome} / ${action}`)).toBeTruthy();
    expect(container.querySelector(".route-card") !== null).toBe(outcome === "route_and_fare_ready" || outcome === "advisory_only");
    expect(container.querySelector(".fare-card") !== null).toBe(outcome === "route_and_fare_ready");

    if (action === "prompt_purchase") {
      const buy = buyButton() as HTMLButtonElement;
      expect(buy).toBeTruthy();
      expect(buy.disabled).toBe(!result.purchasable);
      expect(result.purchasable).toBe(outcome === "route_and_fare_ready");
      if (!result.purchasable) expect(screen.getByText(en.result.notPurchasable)).toBeTruthy();
    } else {
      expect(buyButton()).toBeNull();
      const title = { block_purchase: en.result.blockTitle, display_info: en.result.infoTitle, refer_to_staff: en.result.staffTitle }[action];
      expect(screen.getByRole("heading", { name: title })).toBeTruthy();
      fireEvent.click(screen.getByRole("button", { name: en.result.done }));
      expect(handlers.onFinish).toHaveBeenCalledOnce();
    }
    if (action === "block_purchase") {
      expect(screen.getByText(`Reason: ${en.reason.no_service}`)).toBeTruthy();
      expect(container.querySelector(".badge")?.textContent).toBe(en.reason.no_service);
    }
    if (action === "refer_to_staff") expect(screen.getByText(en.result.staffBody)).toBeTruthy();
  });
});

describe("ResultView: purchase button", () => {
  it("is enabled and buys only for a purchasable result", () => {
    const { handlers } = show(askResult(readyState()));
    const buy = buyButton() as HTMLButtonElement;
    expect(buy.disabled).toBe(false);
    expect(buy.textContent).toContain("$5.75");
    fireEvent.click(buy);
    expect(handlers.onPurchase).toHaveBeenCalledOnce();
  });

  it("stays disabled for prompt_purchase when the runtime says not purchasable (interlock, fallback)", () => {
    const { handlers } = show(askResult(readyState(), { purchasable: false, fallback: true }));
    const buy = buyButton() as HTMLButtonElement;
    expect(buy.disabled).toBe(true);
    fireEvent.click(buy);
    expect(handlers.onPurchase).not.toHaveBeenCalled();
    expect(screen.getByText(en.result.fallback)).toBeTruthy();
  });

  it("shows the assistant-unavailable notice when the deterministic policy answered", () => {
    show(askResult(readyState(), { assistantUnavailable: true, policy: "rule" }));
    expect(screen.getByText(en.result.assistantUnavailable)).toBeTruthy();
  });

  it("offers change-journey and follow-up from a result", () => {
    const { handlers } = show(askResult(readyState()));
    fireEvent.click(screen.getByRole("button", { name: en.result.change }));
    fireEvent.click(screen.getByRole("button", { name: en.chat.followUp }));
    expect(handlers.onEdit).toHaveBeenCalledOnce();
    expect(handlers.onFollowUp).toHaveBeenCalledOnce();
  });
});

describe("ResultView: banners", () => {
  it("shows every severity with its colour class, icon and severity word, most severe first", () => {
    const banners = (["positive", "info", "warning", "critical"] as const).map((severity) => ({ severity, title: `${severity} title`, body: `${severity} body` }));
    const { container } = show(askResult(readyState({ advisory_banners: banners })));
    const shown = [...container.querySelectorAll(".banner")];
    expect(shown.map((b) => b.getAttribute("data-severity"))).toEqual(["critical", "warning", "info", "positive"]);
    for (const banner of shown) {
      const severity = banner.getAttribute("data-severity") as "critical";
      expect(banner.classList.contains(`banner-${severity}`)).toBe(true);
      expect(banner.querySelector(`svg.icon-${severity}`)).toBeTruthy();
      expect(within(banner as HTMLElement).getByText(en.banner[severity])).toBeTruthy();
      expect(within(banner as HTMLElement).getByText(`${severity} title`)).toBeTruthy();
      expect(within(banner as HTMLElement).getByText(`${severity} body`)).toBeTruthy();
    }
    expect(shown[0]?.getAttribute("role")).toBe("alert");
    expect(shown[1]?.getAttribute("role")).toBe("status");
  });
});

describe("ResultView: route and fare", () => {
  it("shows the route summary, stops, transfers and line colours", () => {
    const route = {
      ...ROUTE,
      destination: "M-GS",
      stops: [
        { station_id: "M-WE", station_name: "West End", line: "red" },
        { station_id: "M-FP", station_name: "Five Points", line: "red", is_transfer: true },
        { station_id: "M-GS", station_name: "Georgia State", line: "blue" },
      ],
      transfers: 1,
      estimated_minutes: 9,
      distance_miles: 2.04,
      line_sequence: ["red", "blue"],
    };
    const { container } = show(askResult(readyState({ route })));
    expect(screen.getByText("3 stops · 1 transfer · about 9 min")).toBeTruthy();
    expect(screen.getByText("2.0 miles")).toBeTruthy();
    const chips = [...container.querySelectorAll(".route-card .line-chip")].map((c) => c.textContent);
    expect(chips).toEqual(["Red Line", "Blue Line"]);
    expect(container.querySelector(".route-stop-transfer")?.textContent).toContain(en.route.change);
    // The map highlights the route: two segments, coloured by the leg's line, origin and destination marked.
    const segments = [...container.querySelectorAll(".map-route-segment")];
    expect(segments.map((s) => s.getAttribute("stroke"))).toEqual(["#ce242b", "#0075b2"]);
    expect(container.querySelector('.map-stations [data-station="M-WE"]')?.getAttribute("data-role")).toBe("origin");
    expect(container.querySelector('.map-stations [data-station="M-GS"]')?.getAttribute("data-role")).toBe("destination");
    expect(container.querySelector('.map-stations [data-station="M-FP"]')?.getAttribute("data-role")).toBe("route");
    const labels = [...container.querySelectorAll(".map-label")].map((l) => l.textContent).sort();
    expect(labels).toEqual(["Five Points", "Georgia State", "West End"]);
  });

  it("lists several fare line items, passengers in words, discounts and the total", () => {
    const { container } = show(askResult(readyState()));
    const items = [...container.querySelectorAll(".fare-items tr")].map((row) => [...row.querySelectorAll("td")].map((td) => td.textContent));
    expect(items).toEqual([
      ["2 × Adults @ $2.50", "$5.00"],
      ["1 × Children @ $1.25", "$1.25"],
    ]);
    expect(container.querySelector(".fare-passengers")?.textContent).toContain("2 adults and 1 child");
    expect(screen.getByText("Family saver")).toBeTruthy();
    expect(screen.getByText("−$0.50")).toBeTruthy();
    expect(screen.getByTestId("fare-total").textContent).toBe("$5.75");
  });

  it("formats money with the framebook's format (Beijing: ¥X) and draws the schematic map", () => {
    const quote = { total: 8, currency: "CNY", line_items: [{ rider_type: "adults", count: 2, unit_fare: 4, subtotal: 8, currency: "CNY" }] };
    const route = { ...ROUTE, origin: "B-XZM", destination: "B-FUX", stops: [{ station_id: "B-XZM", line: "2" }, { station_id: "B-FUX", line: "2" }], line_sequence: ["2"] };
    const { container } = show(askResult(readyState({ fare_quote: quote, route })), DEMO_BEIJING);
    expect(screen.getByTestId("fare-total").textContent).toBe("¥8");
    expect(container.querySelector(".fare-items td")?.textContent).toBe("2 × Adults @ ¥4");
    expect(container.querySelector(".network-map")?.getAttribute("data-mode")).toBe("schematic");
    expect(screen.getByText(en.map.schematic)).toBeTruthy();
  });
});

describe("ResultView: speech", () => {
  it("reads the answer aloud on request, pauses, resumes and repeats", () => {
    const speaker = fakeSpeaker();
    show(askResult(readyState({ advisory_banners: [{ severity: "warning", title: "Delays", body: "Up to 10 minutes." }] })), DEMO_MARTA, { speaker });
    fireEvent.click(screen.getByRole("button", { name: en.speech.listen }));
    expect(speaker.log.at(-1)).toBe("speak:en:Take the Red line from Airport to Midtown. Delays. Up to 10 minutes.");
    fireEvent.click(screen.getByRole("button", { name: en.speech.pause }));
    fireEvent.click(screen.getByRole("button", { name: en.speech.resume }));
    fireEvent.click(screen.getByRole("button", { name: en.speech.repeat }));
    expect(speaker.log.filter((l) => l.startsWith("speak"))).toHaveLength(2);
    expect(speaker.log).toContain("pause");
    expect(speaker.log).toContain("resume");
    act(() => speaker.finish());
    expect(screen.getByRole("button", { name: en.speech.listen })).toBeTruthy();
  });

  it("is absent where the platform has no speech synthesis", () => {
    show(askResult(readyState()), DEMO_MARTA, { speaker: { available: false, speak: () => {}, pause: () => {}, resume: () => {}, cancel: () => {} } });
    expect(screen.queryByRole("button", { name: en.speech.listen })).toBeNull();
  });
});

describe("ResultView: hybrid provisional answers", () => {
  it("shows a provisional answer as 'checking', with no way to buy yet", () => {
    const result = { ...askResult(readyState()), purchasable: false };
    const handlers = { onPurchase: vi.fn(), onEdit: vi.fn(), onFinish: vi.fn(), onFollowUp: vi.fn() };
    renderWithProviders(<ResultView system={DEMO_MARTA} result={result} checking {...handlers} />);
    expect(screen.getByText(en.result.checking)).toBeTruthy();
    expect(buyButton()).toBeNull();
    expect(screen.getByText(result.state.assistant_message)).toBeTruthy();
  });

  it("says what the assistant's check changed", () => {
    const result = { ...askResult(readyState()), check: { decidedBy: "model" as const, reason: "free_text", changed: true, note: "The fare changed from $3.75 to $2.50." } };
    show(result);
    expect(screen.getByText(en.result.changed.replace("{{note}}", "The fare changed from $3.75 to $2.50."))).toBeTruthy();
    expect(buyButton()).toBeTruthy();
  });

  it("stays quiet when the check confirmed the provisional answer", () => {
    show({ ...askResult(readyState()), check: { decidedBy: "model" as const, reason: "free_text", changed: false, note: null } });
    expect(screen.queryByText(/Updated after the assistant/)).toBeNull();
  });
});

describe("ResultView: wording for real passengers", () => {
  it("says a disrupted trip is suspended and names the alternative, never 'no ticket is needed'", () => {
    const state: AssistantState = {
      ...stateFor("advisory_only", "display_info"),
      advisory_banners: [
        {
          severity: "critical",
          title: "Planned Maintenance",
          body: "Transbay Tube closed this weekend. Alternative: Free AC Transit bus bridge between West Oakland and Embarcadero. Expected to resolve: Service resumes Tuesday 4:00 AM.",
        },
      ],
    };
    const { container } = show(askResult(state));
    expect(screen.queryByText(en.result.infoBody)).toBeNull();
    const action = container.querySelector(".action") as HTMLElement;
    expect(action.getAttribute("role")).toBe("alert");
    expect(within(action).getByRole("heading", { name: en.result.suspendedTitle })).toBeTruthy();
    expect(within(action).getByText(en.result.suspendedBody)).toBeTruthy();
    expect(within(action).getByText("Alternative: Free AC Transit bus bridge between West Oakland and Embarcadero.")).toBeTruthy();
  });

  it("keeps 'information only' for an answer without a critical notice", () => {
    show(askResult({ ...stateFor("policy_answer_only", "display_info"), advisory_banners: [{ severity: "info", title: "Bikes", body: "Folded bikes only." }] }));
    expect(screen.getByText(en.result.infoBody)).toBeTruthy();
  });

  it("drops zero-priced surcharge lines, says free children with their age limit, and states the rule", () => {
    const system = { ...DEMO_MARTA, riderRules: { children: { qualifier: "under 5", free: true, maxPerAdult: 2 } } };
    const fare: NonNullable<AssistantState["fare_quote"]> = {
      passenger_summary: { adults: 2, children: 1, seniors: 0, disabled: 0, free_riders: 1 },
      line_items: [
        { rider_type: "adults", count: 2, unit_fare: 2.5, subtotal: 5, currency: "USD" },
        { rider_type: "children", count: 1, unit_fare: 0, subtotal: 0, currency: "USD" },
        { rider_type: "transbay tube crossing", count: 1, unit_fare: 0, subtotal: 0, currency: "USD" },
      ],
      total: 5,
      currency: "USD",
    };
    const { container } = show(askResult(readyState({ fare_quote: fare })), system);
    expect(container.querySelector(".fare-passengers")?.textContent).toBe("Passengers: 2 adults and 1 child (under 5, free)");
    expect([...container.querySelectorAll(".fare-items td:first-child")].map((td) => td.textContent)).toEqual(["2 × Adults @ $2.50", "1 × Children · free"]);
    expect(container.querySelector(".fare-rules")?.textContent).toBe("Children under 5 ride free (up to 2 per paying adult)");
  });

  it("shows the passenger's own question above the answer", () => {
    const handlers = { onPurchase: vi.fn(), onEdit: vi.fn(), onFinish: vi.fn(), onFollowUp: vi.fn() };
    const { container } = renderWithProviders(<ResultView system={DEMO_MARTA} result={askResult(readyState())} question="Airport to Midtown please" {...handlers} />);
    const question = container.querySelector(".your-question") as HTMLElement;
    expect(question.textContent).toBe(`${en.chat.youAsked} Airport to Midtown please`);
    const answer = container.querySelector(".assistant-message") as HTMLElement;
    expect(question.compareDocumentPosition(answer) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("names the route's ends in the screen's language, isolated, with the distance in km outside the US", () => {
    // As the runtime's SystemView gives them: names by language, from the operator's file.
    const doha = {
      ...DEMO_DOHA,
      distanceUnit: "km" as const,
      stations: DEMO_DOHA.stations.map((s) => (s.localNames[0] ? { ...s, localized: { ar: s.localNames[0] } } : s)),
    };
    const route = { ...ROUTE, origin: "D-HIA", destination: "D-MSH", stops: [{ station_id: "D-HIA", line: "red" }, { station_id: "D-MSH", line: "red" }], distance_miles: 10 };
    const { container } = show(askResult(readyState({ route })), doha, { language: "ar" });
    const ends = container.querySelector(".route-ends") as HTMLElement;
    expect([...ends.querySelectorAll("bdi")].map((b) => b.textContent)).toEqual(["مطار حمد الدولي", "مشيرب"]);
    expect(ends.getAttribute("aria-label")).toBe("من مطار حمد الدولي إلى مشيرب");
    expect(container.querySelector(".route-distance")?.textContent).toBe("16.1 كم");
  });
});

describe("disabled buttons say why", () => {
  it("the passenger counters, swap and Find route explain themselves", async () => {
    const { KioskApp } = await import("../app/KioskApp.tsx");
    const { createFakeBridge } = await import("../bridge/fakeBridge.ts");
    const { render } = await import("@testing-library/react");
    render(<KioskApp bridge={createFakeBridge({ systems: [DEMO_MARTA] })} />);
    fireEvent.click(await screen.findByRole("button", { name: en.attract.touchToStart }));
    const described = (el: HTMLElement): string => (el.getAttribute("aria-describedby") ?? "").split(" ").map((id) => document.getElementById(id)?.textContent ?? "").join(" ");
    const fewerChildren = screen.getByRole("button", { name: `Remove one: ${en.riderType.children}` }) as HTMLButtonElement;
    expect(fewerChildren.disabled).toBe(true);
    expect(described(fewerChildren)).toBe(en.counter.atZero);
    expect(described(screen.getByRole("button", { name: en.journey.swap }))).toBe(en.journey.swapDisabled);
    expect(described(screen.getByRole("button", { name: en.journey.find }))).toBe(en.journey.needStations);
    const moreAdults = screen.getByRole("button", { name: `Add one: ${en.riderType.adults}` }) as HTMLButtonElement;
    for (let i = 0; i < 8; i++) fireEvent.click(moreAdults);
    expect(moreAdults.disabled).toBe(true);
    expect(described(moreAdults)).toBe("At most 9 of each type per purchase.");
  });
});

describe("ResultView: a trip to, from or through a closed station", () => {
  const choice = { label: "Go to Garnett instead (suggested in the notice)", events: [{ type: "station_selected" as const, field: "destination" as const, value: "Garnett", station_id: "MARTA-GA" }] };
  function showClosed(result: AskResult) {
    const handlers = { onPurchase: vi.fn(), onEdit: vi.fn(), onFinish: vi.fn(), onFollowUp: vi.fn(), onChoose: vi.fn(), onChooseOnScreen: vi.fn() };
    const view = renderWithProviders(<ResultView system={DEMO_MARTA} result={result} {...handlers} />);
    return { ...view, handlers };
  }

  it("to or from it (even when the answer offers a sale): no fare, no buy button, the kiosk's plain words and the open stations as buttons", () => {
    for (const state of [readyState(), { ...readyState(), outcome: "advisory_only" as const, kiosk_action: { action: "display_info" as const, reason_code: "ok" as const } }]) {
      const result: AskResult = {
        ...askResult({ ...state, assistant_message: "Airport to Five Points. Fare: $2.50 for 1 adult." }),
        purchasable: false,
        closedTrip: { kind: "end", stations: ["MARTA-FP"], notice: "Five Points station is closed until 20:00. No ticket is sold to or from it now.", question: "Choose an open station nearby:", choices: [choice] },
      };
      const { container, handlers } = showClosed(result);
      expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(en.result.closedTitle);
      expect(screen.getByText("Five Points station is closed until 20:00. No ticket is sold to or from it now.")).toBeTruthy();
      expect(screen.queryByText(/Fare: \$2\.50/)).toBeNull();
      expect(container.querySelector(".fare-card")).toBeNull();
      expect(buyButton()).toBeNull();
      expect(screen.queryByText(en.result.suspendedTitle)).toBeNull();
      expect(screen.getByText("Choose an open station nearby:")).toBeTruthy();
      fireEvent.click(screen.getByRole("button", { name: choice.label }));
      expect(handlers.onChoose).toHaveBeenCalledWith(choice);
      cleanup();
    }
  });

  it("through it where trains skip it: sold as usual, with the plain words shown", () => {
    const result: AskResult = { ...askResult(readyState()), closedTrip: { kind: "pass_through", stations: ["MARTA-FP"], notice: "Trains pass through Five Points without stopping.", question: "", choices: [] } };
    const { container } = showClosed(result);
    expect(screen.getByText("Trains pass through Five Points without stopping.")).toBeTruthy();
    expect(container.querySelector(".fare-card")).not.toBeNull();
    expect((buyButton() as HTMLButtonElement).disabled).toBe(false);
  });
});
