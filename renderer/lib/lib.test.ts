import { describe, expect, it } from "vitest";
import { DEMO_BEIJING, DEMO_DOHA, DEMO_MARTA } from "../bridge/demoSystems.ts";
import { createKioskI18n } from "../i18n/index.ts";
import { contrastRatio, HIGH_CONTRAST, STANDARD, TEXT_PAIRS, cssVariables } from "../theme/palette.ts";
import { askDraft, canAsk, emptyJourney, journeyEvents } from "./askDraft.ts";
import { formatDistance, formatFare, passengersInWords, qualifierText, riderLabel } from "./format.ts";
import { lineTextColor } from "./lineColors.ts";
import { computeMapLayout, labelPlacement, routeSegments } from "./mapLayout.ts";
import { createSpeaker, scriptLanguage } from "./speech.ts";
import { stationName } from "./names.ts";
import { foldForSearch, searchStations } from "./stationSearch.ts";
import type { StationView } from "./types.ts";

describe("formatFare", () => {
  const money = (currencyCode: string, fareDisplayFormat: string, currencySymbol = "") => ({ currencyCode, fareDisplayFormat, currencySymbol });
  it("follows the framebook's fareDisplayFormat", () => {
    expect(formatFare(2.5, money("USD", "$X.XX"))).toBe("$2.50");
    expect(formatFare(12, money("USD", "$X.XX"))).toBe("$12.00");
    expect(formatFare(1234.5, money("USD", "$X.XX"))).toBe("$1,234.50");
    expect(formatFare(4, money("CNY", "¥X"))).toBe("¥4");
    expect(formatFare(2, money("QAR", "QR X"))).toBe("QR 2");
    expect(formatFare(25, money("TWD", "NT$X"))).toBe("NT$25");
    expect(formatFare(50, money("INR", "₹X.XX"))).toBe("₹50.00");
    expect(formatFare(-0.5, money("USD", "$X.XX"))).toBe("−$0.50");
  });

  it("never hides cents a whole-unit format cannot show", () => {
    expect(formatFare(3.5, money("CNY", "¥X"))).toBe("¥3.50");
  });

  it("any ISO currency without a format: Intl's sign and the currency's own decimals", () => {
    expect(formatFare(50, money("INR", ""))).toBe("₹50.00");
    expect(formatFare(1400, money("KRW", ""))).toBe("₩1,400");
    expect(formatFare(3.2, money("EUR", "", "€"))).toBe("€3.20");
    expect(formatFare(7, money("CHF", ""))).toBe("CHF\u00a07.00");
  });

  it("a format whose sign is another currency's gives way to the code's: rupees are never shown as dollars", () => {
    expect(formatFare(50, money("INR", "$X.XX"))).toBe("₹50.00");
    expect(formatFare(2, money("EUR", "£X.XX"))).toBe("€2.00");
  });

  it("a code Intl cannot use: the format, else the framebook's symbol", () => {
    expect(formatFare(2, money("not a code", "QR X"))).toBe("QR 2");
    expect(formatFare(7, money("", "", "€"))).toBe("€7.00");
  });
});

describe("passengersInWords", () => {
  it("says the group in words in each language", () => {
    const summary = { adults: 2, children: 1, seniors: 0, disabled: 0, free_riders: 0 };
    expect(passengersInWords(summary, createKioskI18n("en").t, "en")).toBe("2 adults and 1 child");
    // A free rider no rule explains is one of the group, never an extra person.
    expect(passengersInWords({ adults: 1, seniors: 2, free_riders: 1 }, createKioskI18n("en").t, "en")).toBe("1 adult and 2 seniors, of whom 1 rides free");
    expect(passengersInWords(summary, createKioskI18n("zh-Hans").t, "zh-Hans")).toContain("2 名成人");
    const ar = passengersInWords({ adults: 2, children: 3 }, createKioskI18n("ar").t, "ar");
    expect(ar).toContain("بالغان");
    expect(ar).toContain("3 أطفال");
  });
});

describe("fare wording", () => {
  const en = createKioskI18n("en").t;
  const rules = { children: { qualifier: "under 5", free: true, maxPerAdult: 2 }, seniors: { qualifier: null, free: false, maxPerAdult: null } };

  it("says a free child with their age limit instead of counting a fourth person", () => {
    expect(passengersInWords({ adults: 2, children: 1, free_riders: 1 }, en, "en", rules)).toBe("2 adults and 1 child (under 5, free)");
    expect(passengersInWords({ adults: 2, children: 1, free_riders: 1 }, createKioskI18n("es").t, "es", rules)).toBe("2 adultos y 1 niño (menores de 5 años, gratis)");
    expect(passengersInWords({ adults: 1, children: 1, free_riders: 1 }, createKioskI18n("zh-Hans").t, "zh-Hans", { children: { qualifier: "under 120cm", free: true, maxPerAdult: 2 } })).toContain("身高 120 厘米以下，免费");
  });

  it("reads the policies' singular rider types as the screen's types", () => {
    expect(riderLabel("adult", en)).toBe("Adults");
    expect(riderLabel("child", createKioskI18n("ar").t)).toBe("الأطفال");
    expect(riderLabel("transbay tube crossing", en)).toBe("transbay tube crossing");
  });

  it("translates the pack's qualifiers and shows distances in the system's unit", () => {
    expect(qualifierText("under 5", en)).toBe("under 5");
    expect(qualifierText("under 120cm", en)).toBe("under 120 cm");
    expect(qualifierText("students", en)).toBe("students");
    expect(formatDistance(10, "mi", en, "en")).toBe("10.0 miles");
    expect(formatDistance(10, "km", en, "en")).toBe("16.1 km");
    expect(formatDistance(10, "km", createKioskI18n("ar").t, "ar")).toBe("16.1 كم");
  });
});

describe("station search", () => {
  it("finds stations by name, id prefix and word, best first", () => {
    expect(searchStations(DEMO_MARTA.stations, "five")[0]?.station.id).toBe("M-FP");
    // An Arabic screen lists stations in the Arabic alphabetical order of their Arabic names
    // (عقبة بن نافع under ع before مشيرب under م), an English one by the English names.
    const doha = {
      ...DEMO_DOHA,
      stations: [
        { ...DEMO_DOHA.stations[0]!, id: "D-MSH", name: "Msheireb", localized: { ar: "مشيرب" } },
        { ...DEMO_DOHA.stations[0]!, id: "D-OQB", name: "Oqba Ibn Nafie", localized: { ar: "عقبة بن نافع" } },
      ],
    };
    const arabic = { nameOf: (s: StationView) => stationName(doha, s, "ar"), collator: new Intl.Collator("ar") };
    expect(searchStations(doha.stations, "", 50, arabic).map((m) => m.station.id)).toEqual(["D-OQB", "D-MSH"]);
    expect(searchStations(doha.stations, "").map((m) => m.station.id)).toEqual(["D-MSH", "D-OQB"]);
    expect(searchStations(DEMO_MARTA.stations, "m-mt")[0]?.station.id).toBe("M-MT");
    expect(searchStations(DEMO_MARTA.stations, "center").map((m) => m.station.id)).toEqual(["M-AC", "M-LC", "M-PC"]);
    expect(searchStations(DEMO_MARTA.stations, "")).toHaveLength(DEMO_MARTA.stations.length);
    expect(searchStations(DEMO_MARTA.stations, "zzz")).toEqual([]);
  });

  it("finds stations by their Chinese names", () => {
    const [first] = searchStations(DEMO_BEIJING.stations, "西直门");
    expect(first?.station.name).toBe("Xizhimen");
    expect(first?.matched).toBe("西直门");
    expect(searchStations(DEMO_BEIJING.stations, "航站楼").map((m) => m.station.id).sort()).toEqual(["B-T2", "B-T3"]);
  });

  it("finds pinyin without apostrophes, tones, spaces or capitals, and the Chinese names it spells", () => {
    // As the host sends Beijing's stations: pinyin names with apostrophes, Chinese names with their pinyin.
    const station = (id: string, name: string, chinese: string, pinyin: string, aliases?: string[]): StationView => ({
      id,
      name,
      localNames: [chinese],
      lines: ["1"],
      lat: null,
      lon: null,
      pinyin: { [chinese]: pinyin },
      ...(aliases ? { aliases } : {}),
    });
    const stations = [
      station("BJM-TIA", "Tian'anmenxi", "天安门西", "tiananmenxi"),
      station("BJM-TIA2", "Tian'anmendong", "天安门东", "tiananmendong"),
      station("BJM-TIA4", "Tiantongyuan", "天通苑", "tiantongyuan"),
      station("BJM-2HH", "2 Hao Hangzhanlou (Terminal 2)", "2号航站楼", "2haohangzhanlou", ["Capital Airport", "PEK", "airport", "机场"]),
      station("BJM-DAJ3", "Daxing Jichang (Daxing Airport)", "大兴机场", "daxingjichang", ["PKX", "airport", "机场"]),
      station("TRTC-TPM", "Taipei Main Station", "台北車站", "taibeichezhan"),
      station("BJM-QIA", "Qianmen", "前门", "qianmen", ["Tiananmen Square"]),
    ];
    const ids = (query: string) => searchStations(stations, query).map((m) => m.station.id).sort();
    // The stations named so first; the one serving the landmark of that name after them.
    const first2 = (query: string) => searchStations(stations, query).slice(0, 2).map((m) => m.station.id).sort();
    for (const query of ["tiananmen", "Tiananmen", "TIANANMEN", "tiān'ānmén", "tian an men", "Tian'anmen"]) expect(first2(query), query).toEqual(["BJM-TIA", "BJM-TIA2"]);
    expect(searchStations(stations, "tiananmen")[2]?.station.id).toBe("BJM-QIA");
    expect(ids("Tiananmen Dong")).toEqual(["BJM-TIA2"]);
    expect(searchStations(stations, "tiananmen")[0]?.matched).toMatch(/^天安门/);
    expect(ids("taibeiche")).toEqual(["TRTC-TPM"]);
    expect(ids("airport")).toEqual(["BJM-2HH", "BJM-DAJ3"]);
    expect(ids("机场")).toEqual(["BJM-2HH", "BJM-DAJ3"]);
    expect(ids("PEK")).toEqual(["BJM-2HH"]);
    expect(searchStations(stations, "PKX")[0]?.matched).toBe("PKX");
  });

  it("finds stations by their Arabic names, ignoring diacritics, alef forms and the article", () => {
    expect(searchStations(DEMO_DOHA.stations, "الوكرة")[0]?.station.id).toBe("D-WKR");
    expect(searchStations(DEMO_DOHA.stations, "وكرة")[0]?.station.id).toBe("D-WKR");
    expect(searchStations(DEMO_DOHA.stations, "مُشَيْرِب")[0]?.station.id).toBe("D-MSH");
    expect(searchStations(DEMO_DOHA.stations, "مطار")[0]?.station.name).toBe("Hamad International Airport");
    expect(searchStations(DEMO_DOHA.stations, "wakra")[0]?.station.id).toBe("D-WKR");
    expect(foldForSearch("أإآ")).toBe("ااا");
  });
});

describe("journey events", () => {
  it("states the whole journey on the first ask, in the benchmark's vocabulary", () => {
    const journey = { ...emptyJourney(), origin: "M-AP", destination: "M-MT", paymentMethod: "breeze_card", freetext: "  step free please ", passengersSet: true };
    journey.passengers.children = 2;
    expect(journeyEvents(DEMO_MARTA, journey, null)).toEqual([
      { type: "station_selected", field: "origin", value: "Airport", station_id: "M-AP" },
      { type: "station_selected", field: "destination", value: "Midtown", station_id: "M-MT" },
      { type: "passenger_count_changed", adults: 1, children: 2 },
      { type: "payment_method_selected", method: "breeze_card" },
      { type: "freetext_input", text: "step free please" },
    ]);
    expect(askDraft(DEMO_MARTA, { ...journey, stepFree: true }, null).accessibilityMode).toBe(true);
    expect(askDraft(DEMO_MARTA, journey, null).accessibilityMode).toBeUndefined();
    expect(askDraft(DEMO_MARTA, journey, null, "ar").language).toBe("ar");
    expect(askDraft(DEMO_MARTA, journey, null).language).toBeUndefined();
  });

  it("leaves the counter's untouched default out beside typed words, so the kiosk reads who travels from them", () => {
    const typed = { ...emptyJourney(), origin: "M-AP", destination: "M-FP", freetext: "me, my wife and our 8 year old son" };
    expect(journeyEvents(DEMO_MARTA, typed, null).map((e) => e.type)).toEqual(["station_selected", "station_selected", "freetext_input"]);
    // Set by the passenger (or a tapped journey without words), the counter is sent.
    expect(journeyEvents(DEMO_MARTA, { ...typed, passengersSet: true }, null)).toContainEqual({ type: "passenger_count_changed", adults: 1 });
    expect(journeyEvents(DEMO_MARTA, { ...typed, freetext: "" }, null)).toContainEqual({ type: "passenger_count_changed", adults: 1 });
    // Set after that ask ("Set passengers", one senior added): the whole counter goes, not only the senior.
    const asked = { ...typed, freetext: "" };
    const set = { ...asked, passengersSet: true, passengers: { ...asked.passengers, seniors: 1 } };
    expect(journeyEvents(DEMO_MARTA, set, asked)).toEqual([{ type: "passenger_count_changed", adults: 1, children: 0, seniors: 1, disabled: 0 }]);
  });

  it("sends only what changed in a follow-up (including a count back to zero)", () => {
    const asked = { ...emptyJourney(), origin: "M-AP", destination: "M-MT", passengers: { adults: 1, children: 2, seniors: 0, disabled: 0 } };
    const now = { ...asked, destination: "M-DO", passengers: { ...asked.passengers, children: 0 } };
    expect(journeyEvents(DEMO_MARTA, now, asked)).toEqual([
      { type: "station_selected", field: "destination", value: "Doraville", station_id: "M-DO" },
      { type: "passenger_count_changed", children: 0 },
    ]);
    expect(canAsk(DEMO_MARTA, asked, asked)).toBe(false);
    expect(canAsk(DEMO_MARTA, { ...asked, freetext: "and back?" }, asked)).toBe(true);
  });

  it("needs both stations or a question for the first ask", () => {
    expect(canAsk(DEMO_MARTA, { ...emptyJourney(), origin: "M-AP" }, null)).toBe(false);
    expect(canAsk(DEMO_MARTA, { ...emptyJourney(), origin: "M-AP", destination: "M-FP" }, null)).toBe(true);
    expect(canAsk(DEMO_MARTA, { ...emptyJourney(), freetext: "Is there a bike policy?" }, null)).toBe(true);
  });

  it("only counts rider types the system sells", () => {
    const journey = { ...emptyJourney(), origin: "D-WKR", destination: "D-MSH", passengers: { adults: 1, children: 0, seniors: 2, disabled: 0 } };
    expect(journeyEvents(DEMO_DOHA, journey, null)[2]).toEqual({ type: "passenger_count_changed", adults: 1 });
  });
});

describe("map layout", () => {
  it("projects coordinates north-up into the viewport", () => {
    const layout = computeMapLayout(DEMO_MARTA.stations, DEMO_MARTA.lines, 1000, 1000);
    expect(layout.mode).toBe("geographic");
    const airport = layout.positions.get("M-AP")!;
    const northSprings = layout.positions.get("M-NS")!;
    const indianCreek = layout.positions.get("M-IC")!;
    expect(airport.y).toBeGreaterThan(northSprings.y); // south is lower
    expect(indianCreek.x).toBeGreaterThan(airport.x); // east is right
    for (const p of layout.positions.values()) {
      expect(p.x).toBeGreaterThanOrEqual(0);
      expect(p.x).toBeLessThanOrEqual(1000);
      expect(p.y).toBeGreaterThanOrEqual(0);
      expect(p.y).toBeLessThanOrEqual(1000);
    }
  });

  it("places stations without coordinates between their neighbours", () => {
    const layout = computeMapLayout(DEMO_DOHA.stations, DEMO_DOHA.lines);
    expect(layout.mode).toBe("geographic");
    expect(layout.positions.size).toBe(DEMO_DOHA.stations.length);
    const [sad, azz, spc] = ["D-SAD", "D-AZZ", "D-SPC"].map((id) => layout.positions.get(id)!);
    expect(azz!.x).toBeCloseTo((sad!.x + spc!.x) / 2);
  });

  it("falls back to a schematic layout by line order without coordinates", () => {
    const layout = computeMapLayout(DEMO_BEIJING.stations, DEMO_BEIJING.lines, 1000, 800);
    expect(layout.mode).toBe("schematic");
    expect(layout.positions.size).toBe(DEMO_BEIJING.stations.length);
    const line1 = DEMO_BEIJING.lines[0]!.stations.map((id) => layout.positions.get(id)!);
    expect(line1.every((p, i) => i === 0 || p.x > line1[i - 1]!.x)).toBe(true);
    // Fuxingmen is on lines 1 and 2: it keeps its line-1 place, which line 2 passes through.
    expect(layout.positions.get("B-FUX")!.y).toBe(line1[0]!.y);
  });

  it("draws a line along its own course where it has one, projected like the stations and inside the map", () => {
    const stations: StationView[] = [
      { id: "A", name: "A", localNames: [], lines: ["L"], lat: 17.5, lon: 78.37 },
      { id: "B", name: "B", localNames: [], lines: ["L"], lat: 17.44, lon: 78.45 },
    ];
    const shape: [number, number][] = [[17.5, 78.37], [17.52, 78.41], [17.44, 78.45], [17.43, 78.46]];
    const layout = computeMapLayout(stations, [{ id: "L", name: "L", color: "#e31e24", stations: ["A", "B"], shape }, { id: "M", name: "M", color: "#009846", stations: ["B", "A"] }], 1000, 760);
    const course = layout.courses.get("L")!;
    expect(course).toHaveLength(shape.length);
    expect(course[0]).toEqual(layout.positions.get("A"));
    expect(course[2]).toEqual(layout.positions.get("B"));
    // The course's bend north of both stations is on the map, above them.
    expect(course[1]!.y).toBeLessThan(layout.positions.get("A")!.y);
    for (const p of course) expect(p.y).toBeGreaterThanOrEqual(0);
    // A line without one joins its stations.
    expect(layout.courses.get("M")).toEqual([layout.positions.get("B"), layout.positions.get("A")]);
  });

  it("puts a station's label on the side away from the route, inside the map", () => {
    // The route leaves up and to the right: the label goes below and to the left.
    expect(labelPlacement({ x: 500, y: 400 }, [{ x: 560, y: 380 }], "Ameerpet", 1000, 760)).toEqual({ x: 484, y: 438, anchor: "end" });
    // No room on the left at the map's edge: to the right, still below.
    expect(labelPlacement({ x: 100, y: 40 }, [{ x: 160, y: 30 }], "Miyapur", 1000, 760)).toEqual({ x: 116, y: 78, anchor: "start" });
    // No route yet: above and to the right, unless that leaves the map.
    expect(labelPlacement({ x: 500, y: 400 }, [], "Five Points", 1000, 760)).toEqual({ x: 516, y: 388, anchor: "start" });
    expect(labelPlacement({ x: 950, y: 400 }, [], "Five Points", 1000, 760).anchor).toBe("end");
    // A line through the corner it would take: the label moves to a corner no line crosses.
    const blue = [{ x: 400, y: 380 }, { x: 700, y: 380 }];
    expect(labelPlacement({ x: 500, y: 400 }, [], "Ameerpet", 1000, 760, [blue])).toEqual({ x: 516, y: 438, anchor: "start" });
    const red = [{ x: 500, y: 400 }, { x: 700, y: 440 }];
    expect(labelPlacement({ x: 500, y: 400 }, [], "Ameerpet", 1000, 760, [blue, red])).toEqual({ x: 484, y: 438, anchor: "end" });
  });

  it("turns route stops into segments coloured by the line of each leg", () => {
    const layout = computeMapLayout(DEMO_MARTA.stations, DEMO_MARTA.lines);
    const segments = routeSegments(
      [{ station_id: "M-FP", line: "red" }, { station_id: "M-GS", line: "blue" }, { station_id: "NOPE", line: "blue" }],
      layout.positions,
    );
    expect(segments).toHaveLength(1);
    expect(segments[0]?.line).toBe("blue");
  });
});

describe("theme", () => {
  it("meets WCAG AA in the standard theme and 7:1 in high contrast", () => {
    for (const [fg, bg] of TEXT_PAIRS) {
      expect(contrastRatio(STANDARD[fg], STANDARD[bg]), `${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(HIGH_CONTRAST[fg], HIGH_CONTRAST[bg]), `${fg} on ${bg} (high contrast)`).toBeGreaterThanOrEqual(7);
    }
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21);
    expect(cssVariables(STANDARD)["--color-critical-bg"]).toBe(STANDARD.criticalBg);
  });

  it("picks readable text for every line colour", () => {
    for (const line of [...DEMO_MARTA.lines, ...DEMO_BEIJING.lines, ...DEMO_DOHA.lines]) {
      expect(contrastRatio(line.color.toLowerCase(), lineTextColor(line.color))).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe("speech", () => {
  it("is unavailable without speech synthesis and resets volume for each reading", () => {
    expect(createSpeaker(undefined, undefined).available).toBe(false);
    const spoken: SpeechSynthesisUtterance[] = [];
    let cancelled = 0;
    class Utterance {
      lang = "";
      volume = 0.2;
      rate = 1;
      onend: (() => void) | null = null;
      onerror: (() => void) | null = null;
      constructor(readonly text: string) {}
    }
    const speaker = createSpeaker(
      { speak: (u) => spoken.push(u), cancel: () => void cancelled++, pause: () => {}, resume: () => {} },
      Utterance as unknown as new (text: string) => SpeechSynthesisUtterance,
    );
    speaker.speak("你好", "zh-Hans", () => {});
    expect(spoken[0]).toMatchObject({ text: "你好", lang: "zh-CN", volume: 1 });
    expect(cancelled).toBe(1);
    speaker.speak("台北車站", "zh-Hant", () => {}, 0.4);
    expect(spoken[1]).toMatchObject({ lang: "zh-TW", volume: 0.4 });
    expect(scriptLanguage("Take the Red line")).toBe("en");
    expect(scriptLanguage("Tome la línea roja", "es")).toBe("es");
    expect(scriptLanguage("乘坐1号线")).toBe("zh-Hans");
    expect(scriptLanguage("搭乘淡水信義線", "zh-Hant")).toBe("zh-Hant");
    expect(scriptLanguage("خذ الخط الأحمر")).toBe("ar");
  });
});

describe("demo policy (fake bridge)", () => {
  it("reports stops with the line they are reached on and flags the change", async () => {
    const { demoAnswer } = await import("../bridge/demoPolicy.ts");
    const { state } = demoAnswer(DEMO_MARTA, { origin: "M-AP", destination: "M-DC", passengers: { adults: 2 }, freetext: [] });
    const stops = state.route!.stops;
    expect(stops.map((s) => s.station_id)).toEqual(["M-AP", "M-CP", "M-WE", "M-FP", "M-GS", "M-IP", "M-DC"]);
    expect(stops.filter((s) => s.is_transfer).map((s) => s.station_id)).toEqual(["M-FP"]);
    expect(stops.find((s) => s.station_id === "M-FP")?.line).not.toBe("blue");
    expect(state.route!.transfers).toBe(1);
    expect(state.fare_quote?.total).toBe(5);
  });
});
