import { describe, expect, it } from "vitest";
import type { Disruption, SystemId } from "../../tools/data/schemas.ts";
import { alertDisruptions } from "../alerts/active.ts";
import { validateAlert, type AlertInput } from "../alerts/model.ts";
import { AskResultSchema, type AskResult } from "./bridge.ts";
import { nearestOpenStations } from "./closed-trip.ts";
import { tamperingPolicy, testApp, testPack, TEST_NOW, type TestApp } from "./testing.ts";

/** An operator's alert as the store serves it to a session (English text). */
function alert(input: Omit<AlertInput, "type" | "text"> & { text: string; type?: AlertInput["type"] }): Disruption[] {
  const v = validateAlert({ type: "station_closure", ...input, text: { en: input.text } }, { system: (id) => testPack().system(id) });
  if (!v.ok) throw new Error(JSON.stringify(v.issues));
  return alertDisruptions(v.alert, "en", "en");
}

function appWith(disruptions: Disruption[], options: Parameters<typeof testApp>[0] = {}): TestApp {
  return testApp({ conditions: () => ({ disruptions, now: TEST_NOW }), ...options });
}

async function trip(app: TestApp["app"], system: SystemId, origin: string, destination: string, language?: "es"): Promise<AskResult> {
  return AskResultSchema.parse(
    await app.ask({
      system,
      ...(language ? { language } : {}),
      events: [
        { type: "station_selected", field: "origin", value: origin, station_id: origin },
        { type: "station_selected", field: "destination", value: destination, station_id: destination },
        { type: "passenger_count_changed", adults: 1 },
      ],
    }),
  );
}

async function tap(app: TestApp["app"], system: SystemId, result: AskResult, label: RegExp): Promise<AskResult> {
  const choice = result.closedTrip?.choices.find((c) => label.test(c.label));
  if (!choice) throw new Error(`no choice ${label} in ${JSON.stringify(result.closedTrip?.choices.map((c) => c.label))}`);
  return AskResultSchema.parse(await app.ask({ system, sessionId: result.sessionId, events: choice.events }));
}

const FIVE_POINTS = alert({
  system: "marta",
  stations: ["Five Points"],
  text: "Five Points station is closed for police activity.",
  alternative: "Shuttle buses between Garnett and Peachtree Center",
  valid_until: "2026-03-09T20:00",
});
const EMBARCADERO = alert({ system: "bart", stations: ["Embarcadero"], text: "Embarcadero station is closed for police activity." });

describe("a trip to or from a closed station (operator alert): no fare, what is closed, open stations to choose", () => {
  it("MARTA: to Five Points — the notice, its end time and alternative; the suggested and nearest reachable open stations; a tap sells", async () => {
    const { app } = appWith(FIVE_POINTS);
    const to = await trip(app, "marta", "MARTA-AP", "MARTA-FP");
    expect(to.purchasable).toBe(false);
    expect(to.closedTrip).toMatchObject({ kind: "end", stations: ["MARTA-FP"], question: "Choose an open station nearby:" });
    expect(to.closedTrip?.notice).toBe(
      "Five Points station is closed until 20:00. No ticket is sold to or from it now. Notice: Five Points station is closed for police activity. Suggested instead: Shuttle buses between Garnett and Peachtree Center.",
    );
    // Garnett, which the notice names, first; Peachtree Center is beyond the closure from Airport
    // (trains are not said to run through Five Points), so it is not offered.
    const labels = to.closedTrip!.choices.map((c) => c.label);
    expect(labels[0]).toBe("Go to Garnett instead (suggested in the notice)");
    expect(labels.slice(1)).toEqual(["Go to West End instead", "Go to Oakland City instead"]);
    expect(to.closedTrip!.choices[0]!.events).toEqual([{ type: "station_selected", field: "destination", value: "Garnett", station_id: "MARTA-GA" }]);

    const replanned = await tap(app, "marta", to, /Garnett/);
    expect(replanned.closedTrip).toBeUndefined();
    expect(replanned.state.route?.stops.at(-1)?.station_id).toBe("MARTA-GA");
    expect(replanned.state.fare_quote?.total).toBe(2.5);
    expect(replanned.purchasable).toBe(true);
  });

  it("MARTA: from Five Points — the choices replace the start; in the screen's language", async () => {
    const { app } = appWith(FIVE_POINTS);
    const from = await trip(app, "marta", "MARTA-FP", "MARTA-AP");
    expect(from.purchasable).toBe(false);
    expect(from.closedTrip?.kind).toBe("end");
    expect(from.closedTrip?.choices.map((c) => c.label)).toEqual(["Start from Garnett instead (suggested in the notice)", "Start from West End instead", "Start from Oakland City instead"]);
    const replanned = await tap(app, "marta", from, /West End/);
    expect(replanned.state.route?.stops[0]?.station_id).toBe("MARTA-WE");
    expect(replanned.purchasable).toBe(true);

    const es = await trip(appWith(FIVE_POINTS).app, "marta", "MARTA-FP", "MARTA-AP", "es");
    expect(es.closedTrip?.notice).toMatch(/^La estación Five Points está cerrada hasta las 20:00\. Ahora no se venden billetes desde ni hacia ella\./);
    expect(es.closedTrip?.choices[0]?.label).toBe("Salir desde Garnett (sugerida en el aviso)");
  });

  it("BART: to and from Embarcadero — the adjacent open stations reachable from the other end", async () => {
    const { app } = appWith(EMBARCADERO);
    const to = await trip(app, "bart", "BART-16TH", "BART-EMBR");
    expect(to.purchasable).toBe(false);
    expect(to.closedTrip).toMatchObject({ kind: "end", stations: ["BART-EMBR"], notice: "Embarcadero station is closed. No ticket is sold to or from it now. Notice: Embarcadero station is closed for police activity." });
    // West Oakland is next to Embarcadero too, but across the closed station from 16th St.
    expect(to.closedTrip?.choices.map((c) => c.label)).toEqual(["Go to Montgomery St instead", "Go to Powell St instead"]);
    const sold = await tap(app, "bart", to, /Montgomery/);
    expect(sold.state.route?.stops.map((s) => s.station_id)).toEqual(["BART-16TH", "BART-CIVC", "BART-POWL", "BART-MONT"]);
    expect(sold.purchasable).toBe(true);

    const from = await trip(app, "bart", "BART-EMBR", "BART-19TH");
    expect(from.closedTrip?.choices.map((c) => c.label)).toEqual(["Start from West Oakland instead", "Start from 12th St Oakland instead", "Start from Lake Merritt instead"]);
    expect((await tap(app, "bart", from, /West Oakland/)).purchasable).toBe(true);
  });

  it("CTA: a station the knowledge base announces as permanently closed — the announcement, and the station it names first", async () => {
    const { app } = testApp();
    const to = await trip(app, "cta", "CTA-HOW", "CTA-STL");
    expect(to.purchasable).toBe(false);
    expect(to.closedTrip).toMatchObject({ kind: "end", stations: ["CTA-STL"] });
    expect(to.closedTrip?.notice).toBe("State/Lake station is closed. No ticket is sold to or from it now. Notice: State/Lake station is permanently closed; use Clark/Lake as an alternative.");
    expect(to.closedTrip?.choices[0]?.label).toBe("Go to Clark/Lake instead (suggested in the notice)");
    const sold = await tap(app, "cta", to, /Clark\/Lake/);
    expect(sold.state.route?.stops.at(-1)?.station_id).toBe("CTA-CLK");
    expect(sold.closedTrip).toBeUndefined();
    expect(sold.purchasable).toBe(true);
  });

  it("the interlock refuses a sale to or from a closed station, whatever the answer claims", async () => {
    // A "model" that offers the trip for sale anyway.
    const offering = tamperingPolicy((s) => ({ ...s, outcome: "route_and_fare_ready", kiosk_action: { action: "prompt_purchase", reason_code: "ok" } }));
    for (const [system, disruptions, o, d] of [
      ["marta", FIVE_POINTS, "MARTA-AP", "MARTA-FP"],
      ["bart", EMBARCADERO, "BART-EMBR", "BART-16TH"],
    ] as const) {
      const { app } = appWith(disruptions, { rule: offering });
      const offered = await trip(app, system, o, d);
      expect(offered.state.kiosk_action.action).toBe("prompt_purchase");
      expect(offered.purchasable).toBe(false);
      expect(offered.interlock?.codes).toContain("station_closed");
      expect(offered.closedTrip?.kind).toBe("end");
      expect(await app.purchase({ sessionId: offered.sessionId, paymentMethod: Object.keys(testPack().system(system).fares.payment_methods ?? {})[0]! })).toMatchObject({ ok: false, reason: "not_purchasable" });
    }
  });
});

describe("a trip through a closed station", () => {
  it("MARTA and BART: no route around it and the notice does not say trains run through — not sold, said plainly, the open stops before it offered", async () => {
    const marta = await trip(appWith(FIVE_POINTS).app, "marta", "MARTA-AP", "MARTA-AC");
    expect(marta.purchasable).toBe(false);
    expect(marta.closedTrip).toMatchObject({ kind: "through", stations: ["MARTA-FP"] });
    expect(marta.closedTrip?.notice).toMatch(/^This route passes through Five Points station, which is closed until 20:00, and the notice does not say trains still run through it\. No ticket is sold for this route now\./);
    expect(marta.state.assistant_message).not.toContain("avoids the affected section");
    expect(marta.closedTrip?.choices.map((c) => c.label)).toEqual(["Go to Garnett instead (suggested in the notice)"]);

    const { app } = appWith(EMBARCADERO);
    const bart = await trip(app, "bart", "BART-16TH", "BART-19TH");
    expect(bart.purchasable).toBe(false);
    expect(bart.closedTrip).toMatchObject({ kind: "through", stations: ["BART-EMBR"] });
    expect(bart.state.assistant_message).not.toContain("avoids the affected section");
    const shorter = await tap(app, "bart", bart, /Montgomery/);
    expect(shorter.closedTrip).toBeUndefined();
    expect(shorter.purchasable).toBe(true);
  });

  it("trains skip the station (the notice says so): sold, and the answer says they pass through without stopping instead of 'avoids'", async () => {
    for (const [system, disruptions, o, d, name] of [
      ["marta", alert({ system: "marta", stations: ["Five Points"], text: "Five Points station closed. Trains will skip this station." }), "MARTA-AP", "MARTA-AC", "Five Points"],
      ["bart", alert({ system: "bart", stations: ["Embarcadero"], text: "Embarcadero station closed. All trains skip this station." }), "BART-16TH", "BART-19TH", "Embarcadero"],
    ] as const) {
      const result = await trip(appWith(disruptions).app, system, o, d);
      expect(result.purchasable).toBe(true);
      expect(result.closedTrip).toMatchObject({ kind: "pass_through", choices: [] });
      expect(result.closedTrip?.notice).toBe(`Trains pass through ${name} without stopping: the station is closed, so you cannot get on, off or change trains there.`);
      expect(result.state.assistant_message).toMatch(new RegExp(`^Trains pass through ${name} without stopping`));
      expect(result.state.assistant_message).not.toContain("avoids the affected section");
    }
  });

  it("trains skip the station but the route changes trains there (MARTA's only interchange): not sold, the stop before it offered", async () => {
    const skipped = alert({ system: "marta", stations: ["Five Points"], text: "Five Points station closed. Trains will skip this station." });
    const result = await trip(appWith(skipped).app, "marta", "MARTA-AP", "MARTA-GS");
    expect(result.state.route?.stops.find((s) => s.station_id === "MARTA-FP")?.is_transfer).toBe(true);
    expect(result.purchasable).toBe(false);
    expect(result.closedTrip).toMatchObject({ kind: "through", stations: ["MARTA-FP"] });
    expect(result.closedTrip?.notice).toMatch(/^This route changes trains at Five Points station, which is closed: trains pass through it without stopping\. No ticket is sold for this route now\./);
    expect(result.closedTrip?.choices.map((c) => c.label)).toEqual(["Go to Garnett instead"]);
  });

  it("Taipei: a route around the closed station exists — the answer takes it, and its stops do not list the station", async () => {
    const closed = alert({ system: "taipei", stations: ["TRTC-ZXF"], text: "Zhongxiao Fuxing station is closed for a water leak." });
    const result = await trip(appWith(closed).app, "taipei", "TRTC-BEI", "TRTC-LIN");
    const stops = result.state.route?.stops.map((s) => s.station_id) ?? [];
    expect(stops.length).toBeGreaterThan(0);
    expect(stops).not.toContain("TRTC-ZXF");
    expect(result.closedTrip).toBeUndefined();
    expect(result.state.assistant_message).toMatch(/^Your usual route is disrupted, so this route avoids the affected section\./);
    expect(result.purchasable).toBe(true);
  });
});

describe("a whole-system suspension", () => {
  it("shows no fare and sells nothing (as before)", async () => {
    const suspended = alert({ system: "marta", type: "service_suspended", text: "All MARTA rail service is suspended due to a power failure." });
    const result = await trip(appWith(suspended).app, "marta", "MARTA-AP", "MARTA-FP");
    expect(result.state.outcome).toBe("service_unavailable");
    expect(result.state.fare_quote).toBeUndefined();
    expect(result.purchasable).toBe(false);
  });
});

describe("nearestOpenStations", () => {
  it("offers the adjacent stations first, by travel time, then widens past closed ones (data-driven: any network)", () => {
    const bart = testPack().system("bart");
    expect(nearestOpenStations(bart, "BART-EMBR", new Set(["BART-EMBR"]), new Set())).toEqual(["BART-MONT", "BART-WOAK"]);
    // Montgomery closed too: never offered; one open neighbour is too few, so the next ring out (Powell beyond Montgomery included).
    expect(nearestOpenStations(bart, "BART-EMBR", new Set(["BART-EMBR", "BART-MONT"]), new Set())).toEqual(["BART-WOAK", "BART-POWL", "BART-12TH", "BART-LAKE"]);
    // Another system, excluding the trip's other end.
    expect(nearestOpenStations(testPack().system("marta"), "MARTA-FP", new Set(["MARTA-FP"]), new Set(["MARTA-GA"]))).toEqual(["MARTA-OM", "MARTA-PC", "MARTA-GS"]);
  });
});
