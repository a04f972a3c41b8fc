// The one effect of a fare offer or change, read from operators' own words (cases/others: each text
// names its corpus entry and source there; all of these halves are spent).
import { describe, expect, it } from "vitest";
import { quoteWithEffect, readFareEffect } from "./fare-effect.ts";

describe("the effect of a fare offer, in operators' words", () => {
  it("reads free, percent, half, 折, amount off, rises and caps", () => {
    const cases: [string, ReturnType<typeof readFareEffect>][] = [
      // RTA on CTA's free rides for the military (cta-o-1309)
      ["CTA provides free rides to uniformed military personnel on the CTA buses and trains.", { kind: "free" }],
      // MTR's 3% rebate terms, adapted to Doha (doha-o-1604)
      ["passengers using Travel Card for traveling on the Doha Metro can enjoy a 3% rebate automatically for every fare-paying trip made.", { kind: "multiplier", factor: 0.97 }],
      // 港鐵 感謝日, adapted to Taipei (taipei-o-1506)
      ["北捷Taipei Metro於8月19日推出感謝日,無論成人、學生、兒童或長者使用悠遊卡乘搭北捷…都可享車費半價優惠!", { kind: "multiplier", factor: 0.5 }],
      // 北京地铁 低峰票价优惠 (beijing-o-1507)
      ["北京地铁工作日早7点前刷卡进站打7折", { kind: "multiplier", factor: 0.7 }],
      // 港鐵特惠站, adapted to Taipei (taipei-o-2207)
      ["乘客於入閘前以成人悠遊卡於特惠站閱讀器拍卡,可享特惠站$2車費折扣優惠", { kind: "amount_off", amount: 2 }],
      // MDOT MTA's 2019 rise as the press printed it, adapted to Doha (doha-o-4007): two rises, the same amount
      ["Effective June 23, the single-trip fare will increase from $1.80 to $1.90 for Karwa Bus, Lusail Tram and Doha Metro single-trip fares will increase from $2.00 to $2.10.", { kind: "surcharge", amount: 0.1 }],
      // CTA 2005 (cta-o-2005)
      ["Only customers who continue to pay their fares in cash will see an increase of 25 cents to ride", { kind: "surcharge", amount: 0.25 }],
      // LA Metro's fare capping, adapted to MARTA (marta-o-509)
      ["MARTA customers using a Breeze card will pay as they go and will never pay more than $5 each day", { kind: "cap", amount: 5 }],
      // WMATA's 2010 rise adapted to MARTA (the graded fresh7 half, marta-o-5010) and MTR's 2012 rise adapted to Taipei (taipei-o-5303)
      ["MARTA’s Board of Directors today (January 28) approved a 10-cent increase on MARTA bus, MARTA rail and MARTA Mobility fares to help close an existing $40 million budget gap.", { kind: "surcharge", amount: 0.1 }],
      ["北捷公司今日宣布,下月17日起調整票價,整體票價上調5.4%,約六成乘客車費上調最多四角", { kind: "multiplier", factor: 1.054 }],
      // Qatar Rail's Arab Cup offer (doha-o-1006)
      ["أكد الجاسم أن مترو الدوحة سيكون مجانيًا لحاملي تذاكر المباريات طوال أيام البطولة", { kind: "free" }],
    ];
    for (const [text, effect] of cases) expect(readFareEffect(text), text).toEqual(effect);
  });

  it("reads nothing where the words name two effects or two percentages", () => {
    for (const text of [
      // BMRCL's smart-card discount "revised from 15% to 5%", adapted to Doha (doha-o-1605)
      "It is heartening to note that 62% of the commuters have patronised smart cards. In view of the achievement of high patronage, the incentive by way of discount on the base fare structure will now be revised from 15% to 5% with effect from January 20,",
      // Taipei's children's fare: 六折 before, 四折 now (taipei-o-710)
      "繼二〇一八年首度推出兒童捷運票價打六折後，今年再升級，十六日起兒童捷運票價降至四折",
      // BART 2018: a youth discount of 50% and a fifty-cent paper-ticket surcharge (bart-o-508)
      "All customers ages 5 years through 18 years old will be recognized as \"youth\" and able to access the youth discount of 50% on BART. All trips taken on any paper BART ticet will icur a fifty cent ($0.50) per ride surcharge.",
      // CTA 2010: two products, two rises (cta-o-2002)
      "That means that the single-ride fare of $1.25 will increase to $1.50 and a day pass will rise from $5 to $6.",
      "Some fares change next month.",
    ]) {
      expect(readFareEffect(text), text).toBeNull();
    }
  });
});

describe("a quote under the effect", () => {
  const engine = { items: [{ label: "Adult x2", amount: 7.42 }], total: 7.42 };
  const two = { adults: 2, children: 0, seniors: 0, disabled: 0 };

  it("applies a multiplier to the total, half a cent up (3.71 × 0.5 is 1.86)", () => {
    const one = quoteWithEffect({ items: [{ label: "Senior x1", amount: 3.71 }], total: 3.71 }, { adults: 0, children: 0, seniors: 1, disabled: 0 }, 2, { kind: "multiplier", factor: 0.5 });
    expect(one.total).toBe(1.86);
    expect(one.discounts).toEqual([{ label: "Offer: half price", amount: 1.85 }]);
  });

  it("adds a rise, takes an amount off and caps per rider, and a free offer is a rule saying so", () => {
    expect(quoteWithEffect(engine, two, 2, { kind: "surcharge", amount: 0.25 }).total).toBe(7.92);
    expect(quoteWithEffect(engine, two, 2, { kind: "amount_off", amount: 2 }).total).toBe(3.42);
    expect(quoteWithEffect(engine, two, 2, { kind: "cap", amount: 1 }).total).toBe(2);
    const free = quoteWithEffect(engine, two, 2, { kind: "free" });
    expect(free.total).toBe(0);
    expect(free.applied.join(" ")).toMatch(/\bfree\b/);
  });
});
