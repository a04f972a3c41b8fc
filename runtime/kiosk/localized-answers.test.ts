// The rule policy's terminal message in the passenger's language at a live kiosk (issue 17, item 2):
// route + fare, a closure or refusal, and a "don't know", for each of the four other languages,
// with station and line names as the screen shows them. Bench mode stays English (see
// bench-english below and rule.test.ts / the oracle parity tests).
import { describe, expect, it } from "vitest";
import type { KioskEvent, SystemId } from "../../tools/data/schemas.ts";
import { runCase } from "../session/case.ts";
import { rulePolicy } from "../policies/rule/index.ts";
import { formatAmount } from "../language/answers.ts";
import type { PassengerLanguage } from "./bridge.ts";
import { packExtras } from "./node/pack-extras.ts";
import { testApp, testPack } from "./testing.ts";

const CJK = /[\u4e00-\u9fff]/u;
const ARABIC = /[\u0600-\u06ff]/u;
/** Night: no service on any of the six systems (Monday 03:00 local). */
const NIGHT = new Date(2026, 2, 9, 3, 0, 0);

function app(clock?: Date) {
  return testApp({ extras: packExtras(testPack().root, "framebooks"), ...(clock ? { clock: () => new Date(clock) } : {}) }).app;
}

const trip = (origin: string, destination: string): KioskEvent[] => [
  { type: "station_selected", field: "origin", value: origin, station_id: origin },
  { type: "station_selected", field: "destination", value: destination, station_id: destination },
];
const typed = (text: string): KioskEvent[] => [{ type: "freetext_input", text }];

async function message(system: SystemId, events: KioskEvent[], language?: PassengerLanguage, clock?: Date) {
  const answer = await app(clock).ask({ system, events, ...(language ? { language } : {}) });
  return { text: answer.state.assistant_message, state: answer.state };
}

describe("rule policy answers in the passenger's language (kiosk)", () => {
  it("Arabic (Doha): route and fare with the Arabic station, line and payment names, amount through Intl", async () => {
    const { text, state } = await message("doha", trip("DOHA-MSH", "DOHA-HIA"), "ar");
    expect(state.outcome).toBe("route_and_fare_ready");
    expect(text).toMatch(ARABIC);
    expect(text).toContain("من مشيرب إلى مطار حمد الدولي");
    expect(text).toContain("الخط الأحمر");
    expect(text).toContain("بطاقة السفر");
    expect(text).toContain(`الأجرة: ${formatAmount("ar", 2, "QAR")}`);
    expect(text).not.toMatch(/\bFare\b|\bstops\b|Msheireb/);
  });

  it("Arabic: out of hours (a closure), and a question it cannot answer", async () => {
    const night = await message("doha", trip("DOHA-MSH", "DOHA-HIA"), "ar", NIGHT);
    expect(night.state.outcome).toBe("service_unavailable");
    expect(night.text).toMatch(/^لا توجد خدمة Qatar Rail الآن \(ساعات الخدمة 06:00-23:00\)/);
    const unknown = await message("doha", typed("Tell me a joke"), "ar");
    expect(unknown.state.kiosk_action.reason_code).toBe("unsupported_request");
    expect(unknown.text).toMatch(ARABIC);
    expect(unknown.text).toContain("لكن ليس في هذا الطلب");
  });

  it("simplified Chinese (Beijing): route and fare with the pack's Chinese names", async () => {
    const { text, state } = await message("beijing", trip("BJM-XID", "BJM-AEC"), "zh-Hans");
    expect(state.outcome).toBe("route_and_fare_ready");
    expect(text).toMatch(/^西单到农业展览馆：\d+站/);
    expect(text).toMatch(/号线/);
    expect(text).toContain("票价：");
    expect(text).toContain("一卡通");
    expect(text).not.toMatch(/Xidan|Fare|stops/);
  });

  it("simplified Chinese: refusal, out of hours and a don't-know", async () => {
    const taxi = await message("beijing", typed("Can you book me a taxi?"), "zh-Hans");
    expect(taxi.state.outcome).toBe("request_declined");
    expect(taxi.text).toMatch(/^抱歉，本机无法提供出租车/);
    const night = await message("beijing", trip("BJM-XID", "BJM-AEC"), "zh-Hans", NIGHT);
    expect(night.state.outcome).toBe("service_unavailable");
    expect(night.text).toMatch(/现在不运营/);
    const unknown = await message("beijing", typed("生命的意义是什么？"));
    expect(unknown.state.kiosk_action.reason_code).toBe("unsupported_request");
    expect(unknown.text).toMatch(/^我可以帮您查询/);
  });

  it("traditional Chinese (Taipei): typed in Chinese, answered in Chinese with Taipei's names, no spaces between sentences", async () => {
    // No language chosen on screen: the language layer reads it from the words.
    const { text, state } = await message("taipei", typed("我想從台北車站搭到淡水，請問票價多少？"));
    expect(state.outcome).toBe("route_and_fare_ready");
    expect(text).toMatch(/^台北車站到淡水：\d+站/);
    expect(text).toContain("淡水信義線");
    expect(text).toContain("悠遊卡");
    expect(text).not.toMatch(/。 /);
  });

  it("traditional Chinese: same origin and destination, out of hours, don't-know", async () => {
    const same = await message("taipei", trip("TRTC-TAM", "TRTC-TAM"), "zh-Hant");
    expect(same.state.outcome).toBe("request_declined");
    expect(same.text).toBe("出發站和抵達站都是淡水。請選擇其他目的地。");
    const night = await message("taipei", trip("TRTC-TPM", "TRTC-TAM"), "zh-Hant", NIGHT);
    expect(night.text).toMatch(/目前沒有營運/);
    const unknown = await message("taipei", typed("Tell me a joke"), "zh-Hant");
    expect(unknown.text).toMatch(/^我可以協助查詢TRTC的路線、票價和悠遊卡車票/);
  });

  it("Spanish (CTA, MARTA): route and fare, a permanently closed station, a refusal and a don't-know", async () => {
    const route = await message("marta", trip("MARTA-AP", "MARTA-FP"), "es");
    expect(route.text).toBe(`De Airport a Five Points: 8 paradas, sin transbordos, unos 18 min en Red Line. Tarifa: ${formatAmount("es", 2.5, "USD")} para 1 adulto. Pague con Breeze Card o Contactless payment.`);
    const closed = await message("cta", trip("CTA-STL", "CTA-ORD"), "es");
    expect(closed.state.outcome).toBe("advisory_only");
    expect(closed.text).toMatch(/^El servicio de este viaje tiene incidencias/);
    expect(closed.text).toContain("La estación State/Lake está cerrada. Aviso del operador (solo en inglés): ");
    const taxi = await message("marta", typed("¿Me puede pedir un taxi, por favor?"));
    expect(taxi.state.kiosk_action.reason_code).toBe("unsupported_request");
    expect(taxi.text).toMatch(/^(Lo siento|Puedo ayudarle)/);
    const unknown = await message("marta", typed("Tell me a joke"), "es");
    expect(unknown.text).toBe("Puedo ayudarle con rutas, tarifas y billetes Breeze Card de la red de MARTA, pero no con esa solicitud.");
  });

  it("a knowledge-base article that exists only in English is quoted and the message says so", async () => {
    const { text, state } = await message("doha", typed("What are the Gold Class fares?"), "es");
    expect(state.outcome).toBe("policy_answer_only");
    expect(text).toMatch(/^Esta información solo está disponible en inglés\. .+: /);
  });

  it("English stays English: no language, or English chosen, gives the benchmark's wording", async () => {
    const plain = await message("doha", trip("DOHA-MSH", "DOHA-HIA"));
    const english = await message("doha", trip("DOHA-MSH", "DOHA-HIA"), "en");
    expect(plain.text).toMatch(/^Msheireb to Hamad International Airport: 6 stops, no transfers, about 17 min on Red Line \(Al Wakra Line\)\. Fare: QR 2 for 1 adult\./);
    expect(english.text).toBe(plain.text);
  });

  it("bench mode answers a Chinese-language benchmark case in English (no passenger locale)", async () => {
    const pack = testPack();
    const kase = pack.caseById("TRTC-E-013");
    expect(kase).toBeDefined();
    const record = await runCase(pack, kase!, rulePolicy);
    expect(record.kiosk.state.assistant_message).not.toMatch(CJK);
  });
});

describe("the rule policy's own banners in the passenger's language", () => {
  it("out of hours: the banner's title and body are in Arabic, Chinese and Spanish; English stays the benchmark's", async () => {
    const cases: [SystemId, string, string, PassengerLanguage | undefined, RegExp][] = [
      ["doha", "DOHA-MSH", "DOHA-HIA", "ar", /^لا خدمة في هذه الساعة$/],
      ["beijing", "BJM-XID", "BJM-GUM", "zh-Hans", /^此时段无列车服务$/],
      ["marta", "MARTA-AP", "MARTA-FP", "es", /^Sin servicio a esta hora$/],
      ["marta", "MARTA-AP", "MARTA-FP", undefined, /^No service at this hour$/],
    ];
    for (const [system, from, to, language, title] of cases) {
      const { state } = await message(system, trip(from, to), language, NIGHT);
      const banner = state.advisory_banners?.[0];
      expect(banner?.title, `${system} ${language}`).toMatch(title);
      if (language === "ar") expect(banner?.body).toMatch(ARABIC);
      if (language === "zh-Hans") expect(banner?.body).toMatch(CJK);
      if (language === undefined) expect(banner?.body).toMatch(/^Service is closed now\. Trains resume at /);
    }
  });
});

describe("the rule policy's questions in the passenger's language", () => {
  it("who travels: a Spanish question and Spanish buttons when the words and the counter disagree", async () => {
    const answer = await app().ask({
      system: "marta",
      language: "es",
      events: [
        { type: "passenger_count_changed", adults: 1 },
        { type: "freetext_input", text: "Somos tres adultos, de Airport a Five Points" },
      ],
    });
    expect(answer.clarification?.kind).toBe("riders");
    expect(answer.clarification?.choices.map((c) => c.label)).toEqual(["1 adulto", "3 adultos"]);
    expect(answer.state.assistant_message).not.toMatch(/\badults\b/);
  });
});
