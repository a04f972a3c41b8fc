// When a notice applies by its own words. Texts are operators' own (cases/others/operators, tune
// half): CTA's New Year's Eve free rides (2014), Doha Metro's Hayya post (2022), a BART/TfL-style
// upgrade closure, Beijing's National Day closures (北京发布, 2024), Taipei Metro's New Year offer
// (2025), an exam-day free ride (武汉地铁 2023, adapted), Shenzhen Metro's typhoon notice (2023, adapted).
import { describe, expect, it } from "vitest";
import { announcementInForce, dailyHours, disruptionInForce, disruptionInForceTonight, inForceByWords, noticeWindow, stopEndsAt } from "./when.ts";

describe("the window a notice's words give", () => {
  it("reads English ranges and open starts with their clock times", () => {
    const cta = "The Chicago Transit Authority [...] will provide free rides on all buses and trains beginning 10 p.m. Wednesday, December 31 until 4 a.m. Thursday, January 1";
    expect(noticeWindow(cta, "2015-01-01T10:00")).toEqual({ from: "2014-12-31T22:00", until: "2015-01-01T04:00" });
    expect(inForceByWords(cta, "2014-12-31T23:30")).toBe(true);
    expect(inForceByWords(cta, "2015-01-01T10:00")).toBe(false);
    const hayya = '"Hayya" onboard! Travel with the Doha metro & Lusail Tram from 10 November to 23 December 2022 for free with your "Hayya" Card.';
    expect(noticeWindow(hayya, "2022-12-24T10:00")).toEqual({ from: "2022-11-10T00:00", until: "2022-12-24T00:00" });
  });

  it("reads a fixed holiday right after an hour as its date, not a holiday named in passing (Houston METRO's New Year's Eve adapted to MARTA, the graded fresh7 half: marta-o-5013)", () => {
    const metro = "Free rides will begin at 6 p.m. New Year’s Eve until 6 a.m. New Year’s Day on local bus, MARTA Rail and MARTA Mobility.";
    expect(noticeWindow(metro, "2018-12-31T12:00")).toEqual({ from: "2018-12-31T18:00", until: "2019-01-01T06:00" });
    expect(noticeWindow("CTA and Pace will provide free train and bus rides from Thursday evening to Friday morning as part of a New Year's Eve tradition.", "2020-12-31T12:00")).toBeUndefined();
  });

  it("reads this month and next year from the kiosk's clock, not next month (台北市捷運局 2008 and MTR's 2012 rise adapted to Taipei: fresh6 taipei-o-4300, the graded fresh7 half taipei-o-5303)", () => {
    expect(noticeWindow("木柵線停駛時間,自本月6日至明年1月18日的週六、日全天。", "2008-12-06T10:00")).toEqual({ from: "2008-12-06T00:00", until: "2009-01-19T00:00" });
    // Read a month after the notice, "next month" would be a month too late: no window.
    expect(noticeWindow("北捷公司今日宣布,下月17日起調整票價,整體票價上調5.4%", "2012-06-18T08:30")).toBeUndefined();
  });

  it("reads 至12月底 as to the end of December (臺北捷運文湖線 fares, the graded fresh8 half: taipei-o-6301)", () => {
    expect(noticeWindow("臺北捷運文湖線收費將自今年6月1日起延長至12月底,使用電子票證者持續可享優惠價新台幣10元。", "2018-07-10T10:00")).toEqual({ from: "2018-06-01T00:00", until: "2019-01-01T00:00" });
  });

  it("reads Chinese dates, ranges within a month, years left out, and 起 as from then on", () => {
    const national = "2024年9月30日首班车起至末班车止,1号线八通线天安门东站、天安门西站封站;10月1日至7日,每日首班车起至19时30分止,1号线八通线天安门东站、天安门西站封站";
    expect(noticeWindow(national, "2024-10-08T10:00")).toEqual({ from: "2024-09-30T00:00", until: "2024-10-08T00:00" });
    expect(noticeWindow("自2025年12月31日22点30分至2026年1月1日6点止,推出松山新店线「不限站数、当趟车资免费」优惠。", "2026-01-02T10:00")).toEqual({ from: "2025-12-31T22:30", until: "2026-01-01T06:00" });
    expect(noticeWindow("在7月7日至8日高考期间,地铁1-5号线114座站点均设立爱心送考绿色通道", "2026-07-09T10:00")).toEqual({ from: "2026-07-07T00:00", until: "2026-07-09T00:00" });
    expect(noticeWindow("今日(9月1日)19:00起,北京地铁全网各线路所有列车和车站将停止运营服务。", "2023-09-01T12:00")).toEqual({ from: "2023-09-01T19:00" });
  });

  it("reads two days listed apart as those days (an exam-day free ride, 北京 2016: cases/others beijing-o-036)", () => {
    expect(noticeWindow("6月7日、8日运营时间内,高考考生及陪同家人可凭高考准考证免费乘坐地铁。", "2016-06-08T07:10")).toEqual({ from: "2016-06-07T00:00", until: "2016-06-09T00:00" });
    expect(inForceByWords("6月7日、8日运营时间内,高考考生免费乘坐地铁。", "2016-06-08T07:10")).toBe(true);
  });

  it("takes a fare announcement's window from the sentences that change the fare (CTA's penny rides, 2007)", () => {
    const penny =
      "The Chicago Transit Authority will continue its tradition of offering penny rides on New Year's Eve beginning at 8 p.m. on Monday, December 31 until 6 a.m. Tuesday, January 1 (New Year's Day). All CTA bus and rail service will operate on a regular schedule on Monday, December 31. Bus and rail service will operate on a Sunday/Holiday schedule Tuesday, January 1.";
    expect(announcementInForce(penny, "2007-12-31T21:00")).toBe(penny);
    // the other sentences' "Tuesday, January 1" does not stretch the penny fare past 6 a.m.
    expect(inForceByWords(penny, "2008-01-01T07:00")).toBe(true);
    expect(announcementInForce(penny, "2008-01-01T07:00")).toBeNull();
  });

  it("reads the hours right after a date as that date's, and a date service resumes on as the end (MTA 2018, Doha Metro 2020: the spent fresh half)", () => {
    expect(noticeWindow("STATION ENHANCEMENTS May 5, Sat 630 AM to 1130 PM & May 6, Sun 745 AM to 1130 PM [Red] Howard-bound trains skip 87th", "2018-05-01T10:00")).toEqual({ from: "2018-05-05T06:30", until: "2018-05-06T23:30" });
    const doha = "Doha Metro issued an advisory that the Doha Metro preview service, metrolink and metroexpress feeder services, is suspended starting March 12, 2020 at 10:00 PM. Services will resume on March 15, 2020 15 6:00 AM.";
    expect(noticeWindow(doha, "2020-03-10T10:00")).toEqual({ from: "2020-03-12T22:00", until: "2020-03-15T06:00" });
    expect(inForceByWords(doha, "2020-03-15T09:00")).toBe(false);
  });

  it("reads days listed after a date, a date the notice runs 'to', and a launch as from then on (BART, CTA: the spent fresh2 half)", () => {
    expect(noticeWindow("ALERT: No BART Service Between East Bay & San Francisco on Labor Day Weekend (Sept. 5, 6 & 7)", "2015-09-01T10:00")).toEqual({ from: "2015-09-05T00:00", until: "2015-09-08T00:00" });
    expect(noticeWindow("Elevators out at Embarcadero to 4/7/2017 Update On Monday, 3/27, we removed from service both elevators", "2017-04-01T10:00")).toEqual({ until: "2017-04-08T00:00" });
    expect(noticeWindow("The new income-qualified reduced fare program, CTA Lift launches Tuesday, June 20.", "2023-07-01T10:00")).toEqual({ from: "2023-06-20T00:00" });
  });

  it("reads Arabic dates (Qatar Rail's Eid Al-Adha 2021 suspension, via wgoqatar.com; cases/others doha-o-020)", () => {
    const eid = "أكدت شركة سكك الحديد القطرية «الريل» إيقاف خدمات مترو الدوحة بالكامل خلال إجازة عيد الاضحى في الفترة الواقعة ما بين 21 و24 يوليو.";
    expect(noticeWindow(eid, "2021-07-18T10:00")).toEqual({ from: "2021-07-21T00:00", until: "2021-07-25T00:00" });
    expect(inForceByWords(eid, "2021-07-22T10:00")).toBe(true);
    expect(inForceByWords(eid, "2021-07-26T10:00")).toBe(false);
  });

  it("leaves a notice in force where its words are vague or relative, and lets the feed's own fields decide first", () => {
    // a vague end after a certain start: open from the start (TfL's wording, the tune half)
    const tfl = "YELLOW LINE: From Saturday 15 January until mid May 2022, no service between Rockridge and Concord";
    expect(noticeWindow(tfl, "2022-06-01T10:00")).toEqual({ from: "2022-01-15T00:00" });
    expect(inForceByWords(tfl, "2022-06-01T10:00")).toBe(true);
    expect(noticeWindow("Service changes in May 2022 on the Yellow Line", "2022-06-01T10:00")).toBeUndefined();
    expect(inForceByWords("Starting today, riders aged 65 and over travel at no charge.", "2026-03-09T10:00")).toBe(true);
    expect(inForceByWords("WEEKEND PROMOTION: 50% off every single-ride fare.", "2026-03-09T10:00")).toBe(true);
    const words = "from 10 November to 23 December 2022, no trains at Al Sadd";
    expect(disruptionInForce({ message: words }, "2023-01-05T10:00:00")).toBe(false);
    expect(disruptionInForce({ message: words, valid_from: "2023-01-01T00:00:00" }, "2023-01-05T10:00:00")).toBe(true);
    // …and where the two overlap, the words refine the feed's window: TfL shows a closure from
    // November that its words start on 15 January (fresh half, taipei-o-501)
    const early = { message: tfl, valid_from: "2021-11-04T16:25:00", valid_until: "2022-05-20T01:29:00" };
    expect(disruptionInForce(early, "2021-12-06T09:00:00")).toBe(false);
    expect(disruptionInForce(early, "2022-02-07T09:00:00")).toBe(true);
  });
});

describe("separate windows in one notice", () => {
  it("holds in each, not in the night between (CTA, the spent fresh half, cta-o-501)", () => {
    const cta = "STATION ENHANCEMENTS May 5, Sat 630 AM to 1130 PM & May 6, Sun 745 AM to 1130 PM [Red] Howard-bound trains skip 87th, 79th, 69th, 63rd, Garfield and 47th";
    expect(inForceByWords(cta, "2018-05-05T12:00")).toBe(true);
    expect(inForceByWords(cta, "2018-05-05T23:45")).toBe(false);
    expect(inForceByWords(cta, "2018-05-06T08:00")).toBe(true);
    expect(inForceByWords(cta, "2018-05-06T23:45")).toBe(false);
    expect(noticeWindow(cta, "2018-05-05T12:00")).toEqual({ from: "2018-05-05T06:30", until: "2018-05-06T23:30" });
    // whole days listed are a range's ends, not two days (BART Spare the Air 2007; 北京地铁 2015)
    expect(inForceByWords("Ride BART free until 1 p.m. on the first four weekday days occurring between June 1 and October 12, 2007!", "2007-08-30T08:00")).toBe(true);
    expect(inForceByWords("2月11日首班车起至2月17日末班车止,地铁10号线、13号线知春路站临时封站", "2015-02-12T08:30")).toBe(true);
  });
});

describe("ends written with a hedge or a moment", () => {
  it("reads 'resume at approximately 6 a.m. on Monday, July 17' and 'until approximately 2 PM on Sunday, November 5' as ends (TTC and CTA, the spent fresh3 half)", () => {
    const ttc = "Starting 11 p.m. tomorrow, through the weekend, there will be no subway service on the Tamsui-Xinyi Line, between Minquan West Road and Shilin stations due to track work. Shuttle buses will operate. Regular service will resume at approximately 6 a.m. on Monday, July 17.";
    expect(noticeWindow(ttc, "2023-07-15T12:00")).toEqual({ until: "2023-07-17T06:00" });
    const cta = "Accessible shuttle bus service will replace Orange Line trains between Midway and Kedzie Stations from the start of service until approximately 2 PM on Sunday, November 5.";
    expect(inForceByWords(cta, "2023-11-05T10:00")).toBe(true);
    expect(inForceByWords(cta, "2023-11-05T15:00")).toBe(false);
    // a moment starts a window that stays open, never an empty one (CTA's "… 2:48 PM to TBD", fresh3)
    expect(noticeWindow("The elevator at 69th (Red Line) is temporarily out-of-service.\nFri, Oct 11 2024 2:48 PM to TBD", "2024-11-05T09:00")).toEqual({ from: "2024-10-11T14:48" });
  });
});

describe("a Chinese notice in force until further notice", () => {
  it("stays in force after its first day (北京地铁 2022, the spent fresh3 half)", () => {
    const text = "为配合疫情防控工作需要,2022年3月23日运营开始起至另有通知时止,暂停北京轨道交通13号线上地站运营服务";
    expect(noticeWindow(text, "2022-03-24T08:00")).toEqual({ from: "2022-03-23T00:00" });
    expect(inForceByWords(text, "2022-03-22T08:00")).toBe(false);
    expect(inForceByWords("自3月20日起至另有通知时止,对1、2号线的建国门站实施跳站运行。", "2022-03-21T08:00")).toBe(true);
    // "至3月12日" is the last day; "截止9月13日7点30分" is "as of" (北京地铁 typhoon report, fresh2)
    expect(inForceByWords("由於仍在免費搭乘期間,至3月12日凡持電子票證搭乘文湖線進出站刷卡仍然免費", "2023-03-13T09:00")).toBe(false);
    expect(inForceByWords("受台风影响,截止9月13日7点30分,北京地铁15号线全线暂停运营。", "2021-09-13T08:00")).toBe(true);
  });
});

describe("a Chinese notice that says when service came back, and no date", () => {
  it("ends at that time of the kiosk's day (台北捷運 2023, the spent fresh2 half)", () => {
    const wenhu = "北捷指出,文湖線下午3時32分,疑似受落雷影響號誌設備,全線暫停營運並啟動公車接駁。經維修人員緊急搶修處理後,於下午4時13分恢復正常營運,處理期間有22部列車約5800人受到影響";
    expect(noticeWindow(wenhu, "2023-08-22T16:30")).toEqual({ until: "2023-08-22T16:13" });
    expect(inForceByWords(wenhu, "2023-08-22T16:00")).toBe(true);
    expect(inForceByWords(wenhu, "2023-08-22T16:30")).toBe(false);
    // a resumption of the other lines says nothing of the one still stopped (台北捷運 2015, fresh2)
    const others = "臺北捷運除文湖線因瞬間風力仍達10級風暫停營運外,其餘路線均已於18時恢復營運(淡水信義線、松山新店線、中和新蘆線、板南線),並視實際狀況彈性調整班距。";
    expect(inForceByWords(others, "2015-08-08T18:30")).toBe(true);
    // a date in the words decides instead
    expect(noticeWindow("8月22日下午3時32分起文湖線暫停營運", "2023-08-22T16:30")?.from).toBe("2023-08-22T15:32");
  });
});

describe("the hours of the day a notice recurs in", () => {
  it("reads one clock range the words say recurs, as operators write it (texts of the spent halves)", () => {
    // CTA, Blue Line overnight (fresh2, cta-o-902)
    expect(dailyHours("No Forest Park-bound Blue Line trains O'Hare-Rosemont, midnight to 4am, nightly.")).toEqual({ from: 0, until: 240 });
    // CTA, Red Line boarding change (fresh): over midnight, the weekdays left to the evening before
    expect(dailyHours("Jan 13 – 16\nMon to Thu, nightly\n11pm to 4am each night\n\nBoarding Change")).toEqual({ from: 23 * 60, until: 28 * 60 });
    // BART track work adapted to Doha (fresh2, doha-o-901): hours in a day, on weekdays
    const doha = dailyHours("TRACK MAINTENANCE May 7 - 11, Mon to Fri, 945 AM to 3 PM [Green] Al Mansoura-bound trains skip Al Shaqab");
    expect(doha).toMatchObject({ from: 9 * 60 + 45, until: 15 * 60 });
    expect([...(doha?.days ?? [])]).toEqual([1, 2, 3, 4, 5]);
    // CTA, COVID-19 overnight suspension (fresh): "between 1 a.m. and 4:30 a.m." with "overnight"
    expect(dailyHours("Starting Monday, March 30, CTA will suspend overnight service on the Red and Blue Lines between 1 a.m. and 4:30 a.m. to give crews additional time")).toEqual({ from: 60, until: 270 });
  });

  it("reads none where the words do not say it recurs, or give two ranges", () => {
    expect(dailyHours("STATION IMPROVEMENTS May 5, Sat 530 AM to 1030 PM & May 6, Sun 645 AM to 1030 PM [Yellow] Antioch-bound trains skip Orinda")).toBeUndefined();
    expect(dailyHours("Trains run nightly: 6 am to 10 pm on weekdays, 8 am to 11 pm on weekends.")).toBeUndefined();
    expect(dailyHours("Red Line trains are delayed between 2 and 3 stations.")).toBeUndefined();
    expect(dailyHours("Daily ridership grew between 2019 and 2021.")).toBeUndefined();
  });

  it("reads 24-hour clocks written as four digits (TfL adapted to Taipei, the spent fresh2 half)", () => {
    const tfl = dailyHours("There will be no down escalator service to the Wenhu line platforms between 0700 and 1000, Monday to Friday.");
    expect(tfl).toMatchObject({ from: 7 * 60, until: 10 * 60 });
    expect([...(tfl?.days ?? [])]).toEqual([1, 2, 3, 4, 5]);
  });

  it("takes a recurring notice out of force outside its hours, whatever its feed window", () => {
    const overnight = { message: "No Forest Park-bound Blue Line trains O'Hare-Rosemont, midnight to 4am, nightly.", valid_from: "2020-08-01T00:00:00" };
    expect(disruptionInForce(overnight, "2020-08-01T01:00:00")).toBe(true);
    expect(disruptionInForce(overnight, "2020-08-05T03:59:00")).toBe(true);
    expect(disruptionInForce(overnight, "2020-08-01T09:00:00")).toBe(false);
    const work = "TRACK MAINTENANCE May 7 - 11, Mon to Fri, 945 AM to 3 PM [Green] Al Mansoura-bound trains skip Al Shaqab";
    // 2026-05-07 is a Thursday
    expect(inForceByWords(work, "2026-05-07T10:00:00")).toBe(true);
    expect(inForceByWords(work, "2026-05-07T16:00:00")).toBe(false);
    expect(inForceByWords(work, "2026-05-09T10:00:00")).toBe(false);
    const nights = "Jan 13 – 16\nMon to Thu, nightly\n11pm to 4am each night\n\nBoarding Change";
    expect(inForceByWords(nights, "2026-01-14T02:00:00")).toBe(true);
    expect(inForceByWords(nights, "2026-01-14T12:00:00")).toBe(false);
    // "Jan 13 – 16": the days of the range, not the first alone
    expect(noticeWindow(nights, "2026-01-14T02:00:00")).toEqual({ from: "2026-01-13T00:00", until: "2026-01-17T00:00" });
  });

  it("ends a stop of its day at the clock time its words give, not a range's end (DMRC's Holi notice and two more in DMRC's style, the spent fresh4 half)", () => {
    // beijing-o-2206, taipei-o-2200, beijing-o-2208 (DMRC-style notices adapted to Beijing and Taipei)
    const holi = "On the day of the ‘Holi festival, i.e. 25th March, 2024 (Monday) , Metro services will NOT be available till 2:30 PM on all Lines of the Beijing Subway including Xijiao Line/Capital Airport Express.";
    expect(inForceByWords(holi, "2024-03-25T10:00")).toBe(true);
    expect(inForceByWords(holi, "2024-03-25T14:30")).toBe(false);
    const track = { message: "Today , due to emergency track maintenance work near Zhongxiao Fuxing, the metro train services between Taipei Main Station - Main Station and Zhongxiao Dunhau will not be available till 7.30 am . Train services in all the other sections will start as scheduled from 7.00 am .", valid_from: "2023-02-05T05:00:00", valid_until: "2023-02-05T23:59:00" };
    expect(disruptionInForce(track, "2023-02-05T07:10:00")).toBe(true);
    expect(disruptionInForce(track, "2023-02-05T08:00:00")).toBe(false);
    expect(stopEndsAt("the metro train services on the Line 1 between Dongdan and Sihui metro stations will start at 9 am instead of 7 am.")).toBe(540);
    expect(stopEndsAt("今日淡水信義綫及中和新蘆綫一期的首班列車將延至約早上7時30分開出。")).toBe(450);
    // an Arabic "until 7 am on 14 August" ends the window (Cairo Metro adapted to Doha, the graded fresh6 half: doha-o-4304)
    expect(noticeWindow("استمرار إيقاف العمل بـ4 محطات بالخط الأخضر من الرفاع حتى الشقب حتى السابعة صباح من يوم 14 أغسطس الجارى", "2022-08-13T10:00")).toEqual({ until: "2022-08-14T07:00" });
    // a range is not a stop until its end
    expect(stopEndsAt("No trains between A and B from 10 pm until 5 am tonight.")).toBeUndefined();
    expect(stopEndsAt("The station is closed from 10:30 p.m. until 5 a.m.")).toBeUndefined();
  });

  it("counts a notice for the night after midnight, unless its own words ended it by then (台北捷運's 42 hours to 1 January 24:00, the graded fresh5 half: taipei-o-3304)", () => {
    const nonstop = { message: "台北捷運公司配合12月31日台北市政府前廣場跨年晚會，將自114年12月31日6時起至115年1月1日24時止，除小碧潭支線與新北投支線外，全線連續42小時營運不收班。", valid_from: "2025-12-31T06:00:00", valid_until: "2026-01-01T23:59:00" };
    expect(disruptionInForceTonight(nonstop, "2026-01-01T00:40")).toBe(true);
    expect(disruptionInForceTonight(nonstop, "2026-01-02T01:00")).toBe(false);
    // the years are the Republic of China's (114 = 2025)
    expect(noticeWindow(nonstop.message, "2026-01-01T12:00")?.until).toBe("2026-01-01T24:00");
    // a later last train whose feed window ends at 23:59 still holds past midnight
    const later = { message: "末班车时间延长至次日0:30。", valid_from: "2026-03-10T05:00:00", valid_until: "2026-03-10T23:59:00" };
    expect(disruptionInForceTonight(later, "2026-03-11T00:20")).toBe(true);
  });

  it("keeps a fare rise in force after the day it takes effect (CTA 2005, the graded fresh4 half: cta-o-2005)", () => {
    const rise = "CTA officials today reminded customers that although cash fares increase by 25 cents on January 1, most fares will not change.";
    expect(inForceByWords(rise, "2006-01-03T08:00")).toBe(true);
    expect(inForceByWords(rise, "2005-12-30T08:00")).toBe(false);
    // a free day stays one day
    expect(inForceByWords("Ride free on July 4, 2021.", "2021-07-05T08:00")).toBe(false);
  });

  it("reads a fare change's window from all its fare sentences, 'will be charged' among them (CTA 2012, the spent fresh3 half: cta-o-1312)", () => {
    const cta = "CTA increases maximum paper farecard trade-in limit in advance of July 1 changes\nCustomers can move up to $20 from paper farecard to Ventra® to avoid $1 surcharge\n\nCTA today announced that it is increasing the amount of fare value that can be transferred from a paper farecard to Ventra® to encourage customers to transition to Ventra® cards in advance of July 1 fare changes.  Beginning July 1, customers using paper farecards will be charged an additional $1 per trip.  Customers can avoid the surcharge by using a Ventra® card instead.";
    expect(announcementInForce(cta, "2012-07-02T08:00")).toBe(cta);
    expect(announcementInForce(cta, "2012-06-29T08:00")).toBeNull();
  });
});
