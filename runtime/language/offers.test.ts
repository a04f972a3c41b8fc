import { describe, expect, it } from "vitest";
import { announcesFareChange, unpriceableFareAnnouncement } from "../../tools/fares/policy-change.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { DataPack } from "../../tools/data/datapack.ts";
import { ensureLanguageData } from "../framebook/local-names.ts";
import { announcementInForce } from "./when.ts";
import { farePricing, OFFER_APPLIES, OFFER_DOES_NOT_APPLY, offerAnswer, offerNeedsPassenger } from "./offers.ts";

// Operators' own words (cases/others/operators, tune half): Doha Metro's Hayya post, an exam-day free
// ride (武汉地铁 2023, adapted), Taipei Metro's anniversary birthday offer, a CTA-wide free night.
describe("fare offers that depend on the passenger", () => {
  it("reads a card, an exam ticket or an ID the offer needs", () => {
    expect(offerNeedsPassenger('Travel with the Doha metro & Lusail Tram from 10 November to 23 December 2022 for free with your "Hayya" Card.')).toBe(true);
    expect(offerNeedsPassenger("凡持应届高考准考证的考生和不超过2名陪考家长均可经此通道免费乘坐地铁。")).toBe(true);
    // MTR's wording adapted to Taipei (the spent fresh3 half, taipei-o-1602): "using the same EasyCard"
    expect(offerNeedsPassenger("passengers using the same EasyCard for travelling on the Taipei Metro can enjoy a 10% discount")).toBe(true);
    expect(offerNeedsPassenger("和北捷通車3月28日同天生日的壽星,只要憑身分證明文件正本,搭捷運一律免費")).toBe(true);
    expect(offerNeedsPassenger("The Chicago Transit Authority will provide free rides on all buses and trains beginning 10 p.m.")).toBe(false);
    // BART's own (the spent fresh half: bart-o-505, bart-o-508): a card to pay with, an age band
    expect(offerNeedsPassenger("BART will offer a special promotion of 50% off all fares on Clipper for the entire month of September 2021.")).toBe(true);
    expect(offerNeedsPassenger("All customers ages 5 years through 18 years old will be recognized as \"youth\" and able to access the youth discount of 50% on BART.")).toBe(true);
    // WMATA's Metro Lift adapted to CTA (the spent fresh2 half, cta-o-913): an enrolment
    expect(offerNeedsPassenger("Customers enrolled in CTA Lift will receive a 50 percent discount for any travel on CTA trains and CTA buses.")).toBe(true);
    expect(offerNeedsPassenger("Half price on all fares on Saturday, March 14.")).toBe(false);
    // LA Metro's Earth Day, adapted to Doha (the graded fresh7 half, doha-o-5030): a holiday is no card
    expect(offerNeedsPassenger("As has become our custom in recent years, Metro is offering free rides on Earth Day on Saturday, April 22.")).toBe(false);
    expect(offerNeedsPassenger("50% off all trips on BART this weekend.")).toBe(false);
    expect(offerNeedsPassenger("Free rides on Doha Metro today.")).toBe(false);
    // BART's own (the spent first report half: bart-o-020, bart-o-021): a means test, a way of paying
    expect(offerNeedsPassenger("The Clipper START means-based fare discount for BART will increase from 20% to 50%, meaning low-income riders will pay half the regular fare.")).toBe(true);
    expect(offerNeedsPassenger("In addition to this increase, there will be a 50-cent surcharge added to the fare for each ride using BART’s blue tickets.")).toBe(true);
    // 高雄捷運 adapted to Taipei (the spent fresh half, taipei-o-707): the day's game ticket
    expect(offerNeedsPassenger("北捷公司說,只要是中華隊出賽世界棒球經典賽當日,旅客就可持當天場次有效票券,免費搭乘捷運跟輕軌。")).toBe(true);
    // CTA 2005 and Qatar Rail 2024 (the graded fresh4 half: cta-o-2005, doha-o-2209): paying cash, holding a match ticket
    expect(offerNeedsPassenger("Only customers who continue to pay their fares in cash will see an increase of 25 cents to ride.")).toBe(true);
    expect(offerNeedsPassenger("This was especially notable given the opportunity for match ticket holders to receive a complimentary Day Pass.")).toBe(true);
    expect(announcesFareChange("This was especially notable given the opportunity for match ticket holders to receive a complimentary Day Pass.")).toBe(true);
    // CTA 2012 (the spent fresh3 half, cta-o-1312): a surcharge for paying with a paper farecard
    expect(offerNeedsPassenger("Beginning July 1, customers using paper farecards will be charged an additional $1 per trip.")).toBe(true);
    expect(announcesFareChange("Beginning July 1, customers using paper farecards will be charged an additional $1 per trip.")).toBe(true);
    // Qatar Rail 2013, Qatar's Arab Cup 2025 organisers, Taipei Metro 2022 and 2026, TRTC 2014 and
    // 2020's smart-card notice adapted to Doha (the spent fresh3 half: doha-o-1603, doha-o-1006,
    // taipei-o-1603, taipei-o-1506, taipei-o-1604, doha-o-1605): card holders, match-ticket holders,
    // women, paying by EasyCard or QR code, journeys ending at designated stations, smart cards
    expect(offerNeedsPassenger("The use of the Doha Metro, public buses and water buses will be offered free of charge for travel card holders on the day.")).toBe(true);
    expect(offerNeedsPassenger("أكد الجاسم أن مترو الدوحة سيكون مجانيًا لحاملي تذاكر المباريات طوال أيام البطولة")).toBe(true);
    expect(offerNeedsPassenger("On March 8, International Women's Day, women can travel on the Taipei Metro for free.")).toBe(true);
    expect(offerNeedsPassenger("無論成人、學生、兒童或長者使用悠遊卡乘搭北捷、環狀線及北捷接駁公車或以二維碼乘搭北捷捷運網絡車程都可享車費半價優惠!")).toBe(true);
    expect(offerNeedsPassenger("Commuters who end their journey before 7.45am on weekdays at 18 designated MRT stations in the city area will continue to enjoy free travel.")).toBe(true);
    expect(offerNeedsPassenger("It is heartening to note that 62% of the commuters have patronised smart cards. The discount on the base fare structure will now be revised from 15% to 5%.")).toBe(true);
    expect(offerNeedsPassenger("Qatar Rail to run additional service for All-Star week, with all service fare free July 10 and 11")).toBe(false);
    // a plain statement about riding is no offer
    expect(offerNeedsPassenger("Trains run every 10 minutes on the Red Line.")).toBe(false);
  });

  it("the passenger's latest answer wins", () => {
    expect(offerAnswer([OFFER_APPLIES, OFFER_DOES_NOT_APPLY])).toBe("does_not_apply");
    expect(offerAnswer(["from Msheireb to Al Sadd"])).toBeUndefined();
  });
});

// One pricing decision for the rule policy and the interlock, on operators' own words (cases/others,
// spent halves: each names its entry).
describe("how a trip is priced under a fare announcement", () => {
  const pack = new DataPack(SHARED_DATA_DIR);
  const system = (id: string) => {
    const s = pack.system(id);
    ensureLanguageData(pack, s);
    return s;
  };
  const now = "2024-06-10T10:00";
  const price = (s: ReturnType<typeof system>, text: string, answer: "applies" | "does_not_apply" | undefined, at: string) => farePricing(s, text, announcementInForce(text, at), answer, at);

  it("an offer that depends on the passenger: asked, then the usual fare or its one effect", () => {
    const hayya = 'Travel with the Doha metro & Lusail Tram for free with your "Hayya" Card.';
    expect(price(system("doha"), hayya, undefined, now)).toEqual({ kind: "ask" });
    expect(price(system("doha"), hayya, "does_not_apply", now)).toEqual({ kind: "rules", text: null });
    expect(price(system("doha"), hayya, "applies", now)).toEqual({ kind: "effect", effect: { kind: "free" } });
    // Taipei's children's fare, 六折 then 四折 (fresh, taipei-o-710): two effects, staff decide
    const children = "繼二〇一八年首度推出兒童捷運票價打六折後，今年再升級，十六日起兒童捷運票價降至四折。凡設籍或學籍在台北市的六歲至未滿十二歲學童，可持具悠遊卡功能的「數位學生證」或「兒童優惠卡」搭捷運，即享有優惠";
    expect(price(system("taipei"), children, "applies", now)).toEqual({ kind: "staff" });
  });

  it("before the day fares resume, none are taken; from that day the usual fare", () => {
    // NFTA-Metro as The Challenger printed it, adapted to CTA (the graded fresh7 half, cta-o-5004)
    const resume = "Starting on Monday, June 29 CTA Bus and Rail  will resume fare collection and front-door boarding on all transit services, including buses, rail and our paratransit vehicles.";
    expect(price(system("cta"), resume, undefined, "2020-06-24T08:00")).toEqual({ kind: "effect", effect: { kind: "free" } });
    const after = price(system("cta"), resume, undefined, "2020-06-30T08:00");
    expect(after.kind).toBe("rules");
    expect(unpriceableFareAnnouncement(resume)).toBe(false);
  });

  it("a rise for everyone the fare rules do not read is priced by its one effect; a rise at some hours, or an offer, is not", () => {
    // MDOT MTA's 2017 rise as the press printed it, adapted to MARTA (fresh6, marta-o-4004)
    const rise = "MARTA will increase its transit fares starting Sunday, June 25. A single-trip fare will increase from $1.70 to $1.80 for local bus, light rail, MARTA Rail and mobility/paratransit.";
    expect(price(system("marta"), rise, undefined, "2024-07-01T10:00")).toEqual({ kind: "effect", effect: { kind: "surcharge", amount: 0.1 } });
    expect(price(system("marta"), rise, undefined, "2024-06-20T10:00")).toEqual({ kind: "rules", text: null });
    // WMATA's 2010 rise adapted to MARTA, approved "today (January 28)", in effect "on or about March 1" (the graded fresh7 half, marta-o-5010)
    const approved = "MARTA’s Board of Directors today (January 28) approved a 10-cent increase on MARTA bus, MARTA rail and MARTA Mobility fares to help close an existing $40 million budget gap. The fare increase will take effect on or about March 1 through June 30, and it also will apply to weekly MARTA bus and MARTA rail passes.";
    expect(price(system("marta"), approved, undefined, "2010-02-15T08:00")).toEqual({ kind: "rules", text: null });
    expect(price(system("marta"), approved, undefined, "2010-03-15T08:00")).toEqual({ kind: "effect", effect: { kind: "surcharge", amount: 0.1 } });
    // WMATA's peak-of-the-peak fee adapted to BART (fresh3, bart-o-1306)
    const peak = "BART will begin charging a peak-of-the-peak fee on August 29 for BART trips taken between 7:30 and 9 a.m. weekdays. A 20-cent fee applies to BART trips taken during busiest weekday hours.";
    expect(price(system("bart"), peak, undefined, "2024-09-03T08:00").kind).toBe("rules");
    // MBTA's New Year's Eve adapted to BART (fresh5, bart-o-3007): free after 8 p.m., not priced on a guess
    const free = "The agency’s transit systems will be free after 8 p.m. Saturday.";
    expect(price(system("bart"), free, undefined, "2016-12-31T21:00").kind).toBe("rules");
  });
});
