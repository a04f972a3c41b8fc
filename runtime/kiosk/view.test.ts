import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { SystemId } from "../../tools/data/schemas.ts";
import { DEFAULT_OPERATOR_DIR, loadLanguageData } from "../framebook/local-names.ts";
import { passengerLanguageOf, SystemViewSchema, type PassengerLanguage } from "./bridge.ts";
import { loadOperatorLocalNames, packExtras } from "./node/pack-extras.ts";
import { testApp, testPack } from "./testing.ts";

describe("SystemView: names in the passenger's language", () => {
  const { app } = testApp({ extras: packExtras(testPack().root, "framebooks") });

  it("maps framebook and local-names language tags to passenger languages", () => {
    expect(passengerLanguageOf("zh")).toBe("zh-Hans");
    expect(passengerLanguageOf("zh-CN")).toBe("zh-Hans");
    expect(passengerLanguageOf("zh-TW")).toBe("zh-Hant");
    expect(passengerLanguageOf("zh-Hant")).toBe("zh-Hant");
    expect(passengerLanguageOf("ar")).toBe("ar");
    expect(passengerLanguageOf("es-US")).toBe("es");
    expect(passengerLanguageOf("fr")).toBeNull();
  });

  it("gives Beijing stations their simplified Chinese names from the pack, and lines and payments from the operator file", () => {
    const view = SystemViewSchema.parse(app.systemView("beijing"));
    expect(view.stations.find((s) => s.id === "BJM-XID")?.localized).toEqual({ "zh-Hans": "西单" });
    expect(view.lines.find((l) => l.id === "1")?.localized).toEqual({ "zh-Hans": "1号线" });
    expect(view.paymentMethods.find((m) => m.id === "yikatong")?.localized).toEqual({ "zh-Hans": "一卡通" });
    expect(view.distanceUnit).toBe("km");
    expect(view.riderRules?.children).toEqual({ qualifier: "under 120cm", free: true, maxPerAdult: 2 });
  });

  it("gives every Taipei station, line and payment method a traditional Chinese name", () => {
    const view = app.systemView("taipei");
    expect(view.stations.filter((s) => !s.localized?.["zh-Hant"]).map((s) => s.id)).toEqual([]);
    expect(view.stations.find((s) => s.id === "TRTC-TPM")?.localized?.["zh-Hant"]).toBe("台北車站");
    expect(view.lines.every((l) => l.localized?.["zh-Hant"])).toBe(true);
    expect(view.paymentMethods.find((m) => m.id === "easycard")?.localized).toEqual({ "zh-Hant": "悠遊卡" });
  });

  it("gives stations their other words for type-ahead: aliases, codes, landmarks and 'airport' at every airport station", () => {
    const airports = (id: "marta" | "bart" | "cta" | "doha" | "beijing" | "taipei") =>
      app
        .systemView(id)
        .stations.filter((s) => s.aliases?.includes("airport"))
        .map((s) => s.id)
        .sort();
    expect(airports("marta")).toEqual(["MARTA-AP"]);
    expect(airports("bart")).toEqual(["BART-OAKL", "BART-SFO"]);
    expect(airports("cta")).toEqual(["CTA-MID", "CTA-ORD"]);
    expect(airports("doha")).toEqual(["DOHA-HIA"]);
    expect(airports("beijing")).toEqual(["BJM-2HH", "BJM-3HH", "BJM-DAJ3"]);
    expect(airports("taipei")).toEqual(["TRTC-SSA"]);
    const beijing = app.systemView("beijing").stations;
    expect(beijing.find((s) => s.id === "BJM-2HH")?.aliases).toEqual(expect.arrayContaining(["Capital Airport", "PEK", "机场", "機場", "المطار", "aeropuerto"]));
    expect(beijing.find((s) => s.id === "BJM-DAJ3")?.aliases).toContain("PKX");
    expect(app.systemView("doha").stations.find((s) => s.id === "DOHA-HIA")?.aliases).toEqual(expect.arrayContaining(["DOH", "المطار"]));
  });

  it("gives Chinese names their toneless pinyin, traditional ones read as simplified", () => {
    const beijing = app.systemView("beijing").stations;
    expect(beijing.find((s) => s.id === "BJM-TIA2")?.pinyin).toEqual({ 天安门东: "tiananmendong" });
    expect(beijing.find((s) => s.id === "BJM-2HH")?.pinyin).toMatchObject({ 首都机场: "shoudujichang" });
    const taipei = app.systemView("taipei").stations;
    expect(taipei.find((s) => s.id === "TRTC-TPM")?.pinyin).toMatchObject({ 台北車站: "taibeichezhan" });
    expect(taipei.find((s) => s.id === "TRTC-SSA")?.pinyin).toMatchObject({ 松山機場: "songshanjichang" });
    // No Chinese names, no pinyin.
    expect(app.systemView("bart").stations.some((s) => s.pinyin)).toBe(false);
  });

  it("gives Doha its Arabic names and lines, and keeps miles on the US systems", () => {
    const doha = app.systemView("doha");
    expect(doha.stations.find((s) => s.id === "DOHA-MSH")?.localized).toEqual({ ar: "مشيرب" });
    expect(doha.lines.find((l) => l.id === "red")?.localized?.ar).toContain("الخط الأحمر");
    expect(doha.paymentMethods.find((m) => m.id === "travel_card")?.localized).toEqual({ ar: "بطاقة السفر" });
    expect(doha.distanceUnit).toBe("km");
    expect(doha.riderRules?.children).toEqual({ qualifier: "under 5", free: true, maxPerAdult: 2 });
    expect(app.systemView("marta").distanceUnit).toBe("mi");
    expect(app.systemView("bart").distanceUnit).toBe("mi");
    expect(app.systemView("marta").stations.every((s) => s.localized === undefined)).toBe(true);
  });
});

describe("every station has a name on every non-Latin screen its system offers", () => {
  const pack = testPack();
  const { app } = testApp({ extras: packExtras(pack.root, DEFAULT_OPERATOR_DIR) });
  /** CLDR's likely script of a language ("ar" → Arab, "zh-Hant" → Hant, "es" → Latn). */
  const scriptOf = (language: string): string | undefined => new Intl.Locale(language).maximize().script;
  /** The screen languages a system offers beyond English: its framebook's and its operator file's. */
  const nonLatinScreens = (id: SystemId): PassengerLanguage[] => {
    const tags = [app.systemView(id).primaryLanguage, loadOperatorLocalNames(DEFAULT_OPERATOR_DIR, pack.system(id))?.language];
    const languages = tags.map((tag) => (tag ? passengerLanguageOf(tag) : null)).filter((l): l is PassengerLanguage => l !== null);
    return [...new Set(languages)].filter((l) => scriptOf(l) !== "Latn");
  };

  it("finds such screens on the pack's Arabic and Chinese systems", () => {
    const offered = pack.systemIds.map((id) => [id, nonLatinScreens(id)] as const);
    expect(Object.fromEntries(offered.filter(([, languages]) => languages.length > 0))).toEqual({
      beijing: ["zh-Hans"],
      doha: ["ar"],
      taipei: ["zh-Hant"],
    });
  });

  for (const id of pack.systemIds) {
    it(`${id}: a name in the screen's script for every station, on the screen and in the language layer`, () => {
      const languages = nonLatinScreens(id);
      const view = app.systemView(id);
      const layer = loadLanguageData(pack.root, pack.system(id));
      for (const language of languages) {
        // A name written in some script other than Latin (digits and punctuation are in both).
        const missing = view.stations.filter((s) => !/[^\p{Script=Latin}\p{Script=Common}]/u.test(s.localized?.[language] ?? ""));
        expect(missing.map((s) => `${s.id} ${s.name}`), `${id} ${language}`).toEqual([]);
      }
      if (languages.length > 0) expect(view.stations.filter((s) => !layer.localNames.get(s.id)?.length).map((s) => s.id)).toEqual([]);
    });
  }

  it("an operator file that cites sources cites them for every station it names", () => {
    for (const id of pack.systemIds) {
      const operator = loadOperatorLocalNames(DEFAULT_OPERATOR_DIR, pack.system(id));
      if (!operator || operator.nameSources.size === 0) continue;
      expect([...operator.byStation.keys()].filter((station) => !operator.nameSources.get(station)?.length), id).toEqual([]);
    }
    expect(loadOperatorLocalNames(DEFAULT_OPERATOR_DIR, pack.system("doha"))?.nameSources.get("DOHA-MSH")?.join(" ")).toMatch(/wikipedia\.org/);
  });
});

describe("local-names.yaml: operator typos are errors naming the file and key", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "kiosk-local-names-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("rejects unknown line and payment method ids", () => {
    mkdirSync(path.join(dir, "doha"), { recursive: true });
    writeFileSync(
      path.join(dir, "doha", "local-names.yaml"),
      'language: ar\nnames: {}\nlines:\n  purple: "x"\nline_aliases:\n  pink: ["z"]\npayment_methods:\n  bitcoin: "y"\n',
    );
    const { app } = testApp({ extras: packExtras(testPack().root, dir) });
    expect(() => app.systemView("doha")).toThrow(/local-names\.yaml at lines\.purple: unknown line id 'purple'[\s\S]*line_aliases\.pink: unknown line id 'pink'[\s\S]*payment_methods\.bitcoin: unknown payment method 'bitcoin'/);
  });

  it("rejects a name source citing an unknown reference or station", () => {
    mkdirSync(path.join(dir, "doha"), { recursive: true });
    writeFileSync(
      path.join(dir, "doha", "local-names.yaml"),
      "language: ar\nnames:\n  DOHA-MSH: مشيرب\nreferences:\n  wiki: https://example.org\nname_sources:\n  DOHA-MSH: [wiki, blog]\n  DOHA-NOWHERE: [wiki]\n",
    );
    const { app } = testApp({ extras: packExtras(testPack().root, dir) });
    expect(() => app.systemView("doha")).toThrow(/name_sources\.DOHA-MSH: unknown reference 'blog'[\s\S]*name_sources\.DOHA-NOWHERE: unknown station id 'DOHA-NOWHERE'/);
  });
});
