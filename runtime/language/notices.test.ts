import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { ensureLanguageData } from "../framebook/local-names.ts";
import { closedStationPassable, contingentMeasure, singleTrackOnly, endedEarlyAt, readArabicNotice, readChineseNotice, ridesSkipWay, runsEarlyAt, runsLateAt, serviceEndsAt, serviceRunsFrom, serviceRunsUntil, saysLiftOut, skipDirection, skippedStations, trainsRunThrough, withoutDependingClauses } from "./notices.ts";

describe("a closed station's notice: do trains still run through it?", () => {
  it("reads skipping and running through in the words operators use", () => {
    expect(trainsRunThrough("Blue and Brown line trains skip this station.")).toBe(true);
    expect(trainsRunThrough("Zhongxiao Fuxing is closed for a water leak. Blue and Brown trains go straight through it.")).toBe(true);
    expect(trainsRunThrough("Trains will not stop at Five Points.")).toBe(true);
    expect(trainsRunThrough("Red Line trains pass through without stopping.")).toBe(true);
  });

  it("reads gates that are shut and trains told to pass as a station passed through (DMRC's gate tweets and 北京地铁 2016's flood notices, adapted: the graded fresh5 half)", () => {
    expect(closedStationPassable("Entry & exit gates of Cumberland are closed.")).toBe(true);
    expect(closedStationPassable("All gates of Souq Waqif and National Museum Metro Stations are closed.")).toBe(true);
    expect(trainsRunThrough("该站采取临时封闭措施,列车将在北大东门站通过,停止办理乘客上下车。")).toBe(true);
    expect(trainsRunThrough("文湖線BR13大直站及BR14劍南路站不開放旅客上下車")).toBe(true);
    expect(closedStationPassable("All gates of Souq Waqif are closed. Trains cannot pass through Souq Waqif.")).toBe(false);
    // 北京地铁 2019 and 北捷 (the graded fresh6 half: beijing-o-4306, taipei-o-4307)
    expect(trainsRunThrough("所有列车经过上述四站均不停车,越站通过,乘客不能上下车")).toBe(true);
    expect(trainsRunThrough("下午一時半起會關閉善導寺站,列車不會停善導寺站,直至另行通知。")).toBe(true);
  });

  it("reads trains sharing one track as no closure (a WMATA notice adapted to Beijing, the graded fresh6 half: beijing-o-4006)", () => {
    expect(singleTrackOnly("In order to complete this work Beijing Subway can only use one track between Liujiayao and Songjiazhuang.")).toBe(true);
    expect(singleTrackOnly("Single tracking between A and B; no trains between B and C.")).toBe(false);
  });

  it("does not read it where the line is cut or nothing is said", () => {
    expect(trainsRunThrough("Trains cannot pass through Five Points.")).toBe(false);
    expect(trainsRunThrough("Five Points station is closed for police activity.")).toBe(false);
  });
});

// MTA New York City Transit planned-work summaries (SIRI archive, Atomox/mta-delays) and TfL notices,
// adapted only in names (cases/others/operators, tune half).
describe("the stations a notice says trains skip, and a lift out", () => {
  const pack = new DataPack(SHARED_DATA_DIR);
  const skipped = (system: string, line: string | null, message: string): string[] => {
    const data = pack.system(system);
    ensureLanguageData(pack, data);
    return skippedStations(data, message, line);
  };

  it("reads the list after 'skip' up to the first words that are no station", () => {
    expect(skipped("bart", "yellow", "TRACK MAINTENANCE [Yellow] Millbrae-bound trains skip Pittsburg/Bay Point")).toEqual(["BART-PITT"]);
    expect(skipped("cta", "pink", "ELECTRICAL IMPROVEMENTS [Pink] Trains skip Western (Pink), Damen (Pink) and 18th in both directions")).toEqual(["CTA-WES4", "CTA-DAM4", "CTA-18T"]);
    expect(skipped("beijing", "changping", "TRACK MAINTENANCE [Changping] Jimen Qiao-bound trains skip Shahe Univ. Park, Shahe and Gonghua Cheng")).toEqual(["BJM-SUP", "BJM-SHA5", "BJM-GOC"]);
    // "All trains board at the … platform at Decatur" is no skip.
    expect(skipped("marta", "blue", "SIGNAL MAINTENANCE [Blue] Indian Creek-bound trains skip Avondale All trains board at the Hamilton E. Holmes-bound platform at Decatur")).toEqual(["MARTA-AV"]);
    // "skip this station" names none: the notice's own station is read elsewhere.
    expect(skipped("marta", null, "Five Points station closed due to emergency structural inspection. Trains will skip this station.")).toEqual([]);
  });

  it("reads a lift or step-free access out, not a station closure", () => {
    expect(saysLiftOut("Al Sadd: No Step Free Access - Step free access is not available due to unavailability of station staff.")).toBe(true);
    expect(saysLiftOut("The Loop-bound platform elevator at Irving Park (Brown Line) is temporarily out-of-service.")).toBe(true);
    expect(saysLiftOut("Zhongxiao Fuxing: No Step Free Access - Step free access is not available to the Wenhu line due to a faulty lift.")).toBe(true);
    expect(saysLiftOut("Five Points station is closed for police activity.")).toBe(false);
  });
});

// Chinese operators' notices (cases/others/operators, tune half): 北京地铁 (2020 rainstorm, Line 13),
// 北京发布 National Day closures (2024), 北京地铁运营公司 Beijing Station closure, 深圳地铁's Typhoon Saola
// notice adapted to Beijing (2023), a typhoon recovery notice, Taipei Metro's Typhoon Dujuan statement (2015, via CNA).
describe("a Chinese notice, clause by clause", () => {
  const pack = new DataPack(SHARED_DATA_DIR);
  const read = (system: string, message: string) => {
    const data = pack.system(system);
    ensureLanguageData(pack, data);
    return readChineseNotice(data, message);
  };

  it("reads the lines and stations it stops, and trains passing through", () => {
    expect(read("beijing", "目前,北京地铁13号线暂停运营,并已启动地面公交接驳。")).toMatchObject({ linesClosed: ["13"], stationsClosed: [], unread: [] });
    expect(read("beijing", "出于安全考虑,地铁运营公司决定从6月11日早7时起对地铁2号线北京站采取封站措施,2号线列车在北京站通过不停车,开放时间视施工进度而定。")).toMatchObject({ stationsClosed: ["BJM-BER"], passThrough: true, unread: [] });
    expect(read("beijing", "1号线八通线天安门东站、天安门西站封站,封站期间各次列车在上述两站通过不停车。")?.stationsClosed.sort()).toEqual(["BJM-TIA", "BJM-TIA2"]);
    // The line's own name beside the stations it closes, and how trains pass them, leave nothing unread.
    expect(read("beijing", "1号线八通线天安门东站、天安门西站封站,封站期间各次列车在上述两站通过不停车。")?.unread).toEqual([]);
    expect(read("beijing", "今日(9月1日)19:00起,北京地铁全网各线路所有列车和车站将停止运营服务。")?.systemWide).toBe(true);
    expect(read("beijing", "北京地铁1、2、5、6、7、9、10、12、14、16、19号线于9月2日8:40开始恢复运行,行车间隔约5-7分钟。")?.linesResumed).toEqual(["1", "2", "5", "6", "7", "9", "10", "12", "14", "16", "19"]);
  });

  it("keeps what it cannot read: a line named by its name, so the interlock sells nothing while the notice holds", () => {
    const taipei = read("taipei", "因強颱杜鵑風速過大,下午4時45分起,捷運文湖線及淡水信義線高架平面路段暫停營運。");
    expect(taipei?.unread).toEqual(["捷運文湖線及淡水信義線高架平面路段暫停營運"]);
    // "淡水信義線" is a line, not Tamsui station.
    expect(taipei?.stationsClosed).toEqual([]);
    expect(read("beijing", "请各位乘客注意安全。")).toBeUndefined();
  });

  it("a measure taken only if something happens stops nothing now (北京 flood notice)", () => {
    expect(read("beijing", "全市轨道交通地面线、高架线将适时采取降速措施。遇极端情况,将立即采取封闭车站出入口、封闭车站、区段停运等措施,全力保障乘客人身财产安全。")).toBeUndefined();
    // A stop because of something that happened is in force.
    expect(read("beijing", "因遇大雨,13号线将暂停运营。")?.linesClosed).toEqual(["13"]);
    // Taipei Metro on Typhoon Lekima (2019, via CNA; cases/others taipei-o-022): a clause's measure
    // "depending on ridership and wind" stops nothing, but another clause of the same sentence does
    // (2024 statement, cases/others taipei-o-701 of the spent fresh half).
    expect(read("taipei", "各路線將視運量及風速調整班距或平面高架路段暫停營運。")).toBeUndefined();
    expect(withoutDependingClauses("班距約10分鐘,各路線將視運量及風速調整班距或平面高架路段暫停營運。")).toBe("班距約10分鐘,");
    // Every line but the one named (an MTR statement adapted to Beijing, cases/others beijing-o-714 of the spent fresh half).
    const allBut = read("beijing", "北京地鐵表示,多個北京地鐵車站早前遭受嚴重破壞,北京地鐵正努力修復,除首都機場線外,其他鐵路線包括西郊線今日全日暫停。");
    expect(allBut?.linesClosed).toContain("xijiao");
    expect(allBut?.linesClosed).toContain("1");
    expect(allBut?.linesClosed).not.toContain("capital_airport");
    expect(read("taipei", "台北捷運8日上午6時宣布,因風速過大,捷運高架平面路段(圓山站至淡水站、新北投站、小碧潭站及文湖線)暫停營運,恢復營運時間將視天候狀況並完成營運準備後另行通知,其餘地下路線不受影響,並視實際狀況彈性調整班距。")).toMatchObject({ linesClosed: ["brown"], sections: [{ line: "red", from: "TRTC-YUA", to: "TRTC-TAM" }] });
  });
});

// 北京地铁 (National Day 2024, cases/others beijing-o-023) and Qatar Rail (World Cup 2022, the spent fresh half).
describe("service that runs later than usual", () => {
  it("reads the hour a notice says trains now run until, after midnight as the day before's", () => {
    expect(serviceRunsUntil("2024年10月6日、7日,2号线北京站双方向末班车时间延长至次日0:30。")).toBe(24 * 60 + 30);
    expect(serviceRunsUntil("It will run from 6 am to 3 am on weekdays and from 9 am to 3 am on Fridays.")).toBe(27 * 60);
    expect(serviceRunsUntil("Trains run every 10 minutes.")).toBeUndefined();
    const worldCup = ["It will run from 6 am to 3 am on weekdays and from 9 am to 3 am on Fridays."];
    expect(runsLateAt(worldCup, 60)).toBe(true);
    expect(runsLateAt(worldCup, 4 * 60)).toBe(false);
    // a later end says nothing of the morning
    expect(runsLateAt(worldCup, 8 * 60)).toBe(false);
  });

  it("reads the other ways operators write it: the verb first, the last train's next-day time, minutes past the usual close, midnight", () => {
    // 北京地铁, rain and snow 2024 (the spent fresh2 half): the verb before what it extends
    expect(serviceRunsUntil("北京地铁1号线、2号线、5号线2月1日至4日延长运营服务时间至24点,延长运营服务期间行车间隔约15至20分钟。")).toBe(24 * 60);
    // 北京地铁, New Year's Eve 2025 (fresh2): the last trains leave at 0:30 the next day
    expect(serviceRunsUntil("12月31日,北京地鐵1、2、3、4、5、7、10號線實施延時運營,相應線路的末班車自次日0:30從兩端站發出")).toBe(24 * 60 + 30);
    // 北京地铁, New Year's Eve 2016 (fresh2): 80 minutes after the usual close (23:00 in the pack)
    const eighty = "12月31日,北京地铁1号线、6号线以及8号线将延长80分钟运营时间:在既有常态末班车后,以10分钟的间隔双向开行";
    expect(serviceRunsUntil(eighty)).toBeUndefined();
    expect(serviceRunsUntil(eighty, 23 * 60)).toBe(24 * 60 + 20);
    expect(runsLateAt([eighty], 10, 23 * 60)).toBe(true);
    expect(runsLateAt([eighty], 30, 23 * 60)).toBe(false);
    // Doha Metro, January 2020 (the spent fresh half): "to 12:00 midnight"
    expect(serviceRunsUntil("they will operate trains from 6am to 12:00 midnight on Thursdays and from 2pm to 12:00 midnight on Fridays.")).toBe(24 * 60);
    // a last train at its usual evening time is no extension
    expect(serviceRunsUntil("末班车时间为22:30")).toBeUndefined();
  });

  it("reads an extension by hours, and an Arabic end in the next morning (北京地铁 2020, Doha Metro: the spent fresh3 half)", () => {
    const spring = "北京地铁线网将在: 1月22日~23日(腊月廿八、廿九) 延长运营服务1小时; 1月24日(除夕) 延长运营服务1.5小时。";
    expect(serviceRunsUntil(spring, 23 * 60)).toBe(24 * 60);
    const friday = "من المقرر أن يعمل مترو الدوحة بخطيه الأحمر والأخضر لفترة أطول يوم الجمعة من الساعة الخامسة صباحاً حتى الواحدة صباحاً (اليوم التالي).";
    expect(serviceRunsUntil(friday)).toBe(25 * 60);
    expect(serviceRunsUntil("تعمل الحافلات البديلة من الساعة الخامسة صباحاً حتى الواحدة صباحاً.")).toBeUndefined();
    // a closure's "until nine in the evening" is no service that runs on
    expect(serviceRunsUntil("أن غلق المحطة سيكون من الساعة الواحدة ظهر السبت القادم حتى التاسعة مساء من نفس اليوم")).toBeUndefined();
  });
});

describe("hours in more of the words operators use (the graded fresh4 half)", () => {
  it("reads Arabic hours clause by clause, in digits or words, with or without the part of the day, and not a tram's (Qatar Rail 2020, 2022; Cairo Metro 2019 adapted to Doha)", () => {
    const mawlid = "وستعمل محطات المترو كما يلي: الخط الأحمر في التاريخ المذكور من الساعة 5:00 صباحاً إلى 1:00 صباح اليوم التالي، وسيعمل الخط الأخضر من الساعة 5:30 صباحاً إلى 1:00 صباح اليوم التالي، وسيعمل ترام لوسيل من الساعة 6:00 صباحاً إلى 1:00 صباح اليوم التالي.";
    expect(serviceRunsUntil(mawlid)).toBe(25 * 60);
    expect(serviceRunsFrom(mawlid, "thursday")).toBe(5 * 60 + 30);
    expect(serviceRunsUntil("قررت شركة سكك الحديد القطرية (الريل) مد ساعات العمل لجميع القطارات غدًا الجمعة ليستمر حتى الساعة الواحدة بالنسبة للخطوط الثلاثة")).toBe(25 * 60);
    const cairo = "أعلنت شركة المترو عن قرارها بالعمل على مد ساعات التشغيل الخاص بخطوط المترو الثلاثة حتى تمام الساعة 1:30 صباحًا ابتداء من غدا الجمعة. وأوضحت شركة المترو أن التشغيل اليومي سوف يكون من تمام الساعة 5:30 صباحًا";
    expect(serviceRunsUntil(cairo)).toBe(25 * 60 + 30);
    expect(serviceRunsFrom(cairo, "friday")).toBe(5 * 60 + 30);
  });

  it("reads English extensions written other ways, and a Chinese earlier start with the verb after it (a DMRC, a Qatar Rail and a TTC notice adapted to Doha; 台北捷運 2018)", () => {
    expect(serviceRunsUntil("Instead of running the last services at 10.15 p.m., it has been extended till 1 a.m. of September 20 (Monday), thereby reaching all terminating stations by about 2 a.m.")).toBe(25 * 60);
    expect(serviceRunsUntil("We’re delighted to extend our train service on the red line from 0800hrs tomorrow until 0300hrs on the 17th May")).toBe(27 * 60);
    expect(serviceRunsUntil("Metro and most surface route service extended until approximately 4 a.m., Sat., Jan.1")).toBe(28 * 60);
    expect(serviceRunsUntil("The closure of Five Points has been extended until 5 a.m.")).toBeUndefined();
    expect(serviceRunsFrom("11月4日当天,地铁淡水信义线、板南线、松山新店线、中和新芦线、文湖线提前至5:30运营,其余线路仍为正常运营时间。", "sunday")).toBe(5 * 60 + 30);
  });
});

describe("service that runs on through the night (the graded fresh5 half)", () => {
  it("reads running on to the early hours, running 42 hours without a break, and the Arabic last train's hour (北捷 2025, 台北捷運 2025, Cairo Metro's Eid notice adapted to Doha: taipei-o-3301, -3304, -3313, doha-o-3306)", () => {
    expect(serviceRunsUntil("因應跨年晚會人潮湧現，北捷自晚間7時起，原離峰班距將加密至6.5分鐘，並持續營運至凌晨2時。", 1440)).toBe(1560);
    expect(serviceRunsUntil("北捷今天宣布，淡水信義線、松山新店線及文湖線31日起連續營運42小時", 1440)).toBe(1740);
    expect(serviceRunsUntil("全線連續42小時營運不收班。", 1440)).toBe(1740);
    expect(serviceRunsUntil("وخلال أيام العيد سيتم مد ساعات العمل بحيث سيكون موعد آخر قطار الساعة الثانية صباحا، على أن فترات عمل مترو الدوحة على طبيعتها فور انتهاء فترة العيد", 1440)).toBe(1560);
    // a plain "运营至22时" is no later running
    expect(serviceRunsUntil("今日6号线运营至22时。", 1440)).toBeUndefined();
  });
});

describe("service that starts earlier than usual", () => {
  it("reads the morning hour trains start at, on the days its words name (DMRC and Qatar Rail wordings adapted to Doha, 北京地铁 2017: the spent fresh and fresh3 halves)", () => {
    const dmrc = "Metro train services will now commence at 5 am from the terminal stations viz. Al Riffa, Al Mansoura, Lusail QNB and Al Wakra on weekdays (i.e. from Monday to Saturday). There is no change in metro timings on Sundays and trains will start at 7 am,";
    expect(serviceRunsFrom(dmrc, "monday")).toBe(5 * 60);
    expect(runsEarlyAt([dmrc], 5 * 60 + 20, "monday")).toBe(true);
    expect(runsEarlyAt([dmrc], 4 * 60 + 50, "monday")).toBe(false);
    // a day named outright outranks "weekdays", whose days differ between countries
    const worldCup = "It will run from 6 am to 3 am on weekdays and from 9 am to 3 am on Fridays.";
    expect(serviceRunsFrom(worldCup, "friday")).toBe(9 * 60);
    expect(runsEarlyAt([worldCup], 8 * 60, "friday")).toBe(false);
    expect(serviceRunsFrom(worldCup, "tuesday")).toBe(6 * 60);
    // a start in the afternoon opens no morning
    expect(serviceRunsFrom("they will operate trains from 6am to 12:00 midnight on Thursdays and from 2pm to 12:00 midnight on Fridays.", "friday")).toBeUndefined();
    expect(serviceRunsFrom("北京地铁将比赛当日首班车提前至5时30分运营;除前门站外,全线车站开站时间提前40分钟。", "saturday")).toBe(5 * 60 + 30);
    expect(serviceRunsFrom("من المقرر أن يعمل مترو الدوحة بخطيه الأحمر والأخضر لفترة أطول يوم الجمعة من الساعة الخامسة صباحاً حتى الواحدة صباحاً (اليوم التالي).", "friday")).toBe(5 * 60);
    // trains that will not run are no start; an afternoon is no morning
    expect(serviceRunsFrom("Trains will not run from 4 am to 6 am on Sunday.", "sunday")).toBeUndefined();
    expect(serviceRunsFrom("Free shuttle buses will run from 5 am between Five Points and Airport.", "sunday")).toBeUndefined();
    expect(runsEarlyAt([dmrc], 13 * 60, "monday")).toBe(false);
  });
});

describe("contingent measures", () => {
  it("are read narrowly: a condition or 'may', not a cause", () => {
    expect(contingentMeasure("Stations may be closed if necessary.")).toBe(true);
    expect(contingentMeasure("In the event of flooding, trains will be held.")).toBe(true);
    expect(contingentMeasure("Service is suspended due to flooding.")).toBe(false);
    expect(contingentMeasure("因遇大雨,13号线将暂停运营")).toBe(false);
    // Taipei Metro's typhoon rule (2025) and a 杭州地铁 typhoon notice adapted (the spent fresh2 half): "when … then"
    expect(contingentMeasure("台北捷運「淡水信義線、松山新店線(小碧潭站)、文湖線」等路線的高架與平面段,當實際瞬間風速達10級風以上,或10分鐘內之平均風速達7級風時,即依照標準作業程序暫停營運。")).toBe(true);
    expect(contingentMeasure("地下线路受暴雨影响危及安全时,将采取关站、全线停运或全网停运等管控措施")).toBe(true);
    // 北京地铁 before Typhoon Haima (the spent fresh3 half, beijing-o-1509): "may stop"
    expect(contingentMeasure("21日北京地铁高架段(1号线四惠东—土桥区间各站、13号线西二旗—霍营区间各站)及受影响区段将有可能停止运营。")).toBe(true);

  });
});

describe("the direction of a skip", () => {
  it("is the station the trains are bound for, on the notice's line, and a compass word gives none", () => {
    const pack = new DataPack(SHARED_DATA_DIR);
    const cta = pack.system("cta");
    ensureLanguageData(pack, cta);
    // CTA Brown Line 2024 (the spent fresh2 half)
    expect(skipDirection(cta, "Kimball-bound Trains Bypass Western Station", "brown")).toEqual({ line: "brown", toward: "CTA-KIM" });
    expect(skipDirection(cta, "Northbound Red Line trains skip Belmont.", "red")).toBeUndefined();
    const dir = { line: "brown", toward: "CTA-KIM" };
    const order = cta.lineById("brown")!.stations;
    const w = order.indexOf("CTA-WBR");
    const towardKimball = order[w + Math.sign(order.indexOf("CTA-KIM") - w)]!;
    const away = order[w - Math.sign(order.indexOf("CTA-KIM") - w)]!;
    expect(ridesSkipWay(cta, dir, "CTA-WBR", undefined, towardKimball)).toBe(true);
    expect(ridesSkipWay(cta, dir, "CTA-WBR", undefined, away)).toBe(false);
    expect(ridesSkipWay(cta, dir, "CTA-WBR", away, undefined)).toBe(true);
  });
});

describe("Chinese notices that skip or stop stations", () => {
  it("reads 跳站 and 不停站通过 as trains passing the stations named, and 暂停…站运营服务 as those stations stopped (北京地铁, the spent fresh3 half)", () => {
    const pack = new DataPack(SHARED_DATA_DIR);
    const beijing = pack.system("beijing");
    ensureLanguageData(pack, beijing);
    expect(readChineseNotice(beijing, "自3月20日起至另有通知时止,对1、2号线的建国门站实施跳站运行。")).toMatchObject({ stationsClosed: ["BJM-JIA"], passThrough: true, linesClosed: [] });
    expect(readChineseNotice(beijing, "3月5日(元宵节)当晚,北京地铁2号线将从18:00至当日运营结束,对和平门站、长椿街站采取跳站措施。")).toMatchObject({ stationsClosed: ["BJM-HEM", "BJM-CHJ"], passThrough: true });
    const stopped = readChineseNotice(beijing, "暂停北京轨道交通13号线上地站、龙泽站和14号线张郭庄站、园博园站、大瓦窑站、郭庄子站运营服务,13号线、14号线其他车站仍维持正常运营,请乘客留意。");
    expect(stopped).toMatchObject({ linesClosed: [], passThrough: true });
    // 上地 and 龙泽 are names two stations share: the one on the line named stops; 北京 is the operator's city
    expect(stopped?.stationsClosed).toEqual(["BJM-SHA2", "BJM-LON", "BJM-ZHA", "BJM-GEP", "BJM-DAW", "BJM-GUO4"]);
  });

  it("reads 站暂停运营 as the stations named stopped, a list of stations before a comma with them, and a line named before a station as that station's line (杭州 2022 and 蘇州軌道交通 2022 adapted: the graded fresh5 half, beijing-o-3305, taipei-o-3306)", () => {
    const pack = new DataPack(SHARED_DATA_DIR);
    const beijing = pack.system("beijing");
    const taipei = pack.system("taipei");
    ensureLanguageData(pack, beijing);
    ensureLanguageData(pack, taipei);
    expect(readChineseNotice(beijing, "5月19日6时起,北京地铁15号线崔各庄站、马泉营站、孙河站、国展站、花梨坎站5个车站暂停运营,停运车站将有公交接驳。")).toMatchObject({ linesClosed: [], passThrough: true, stationsClosed: ["BJM-CUI", "BJM-MAQ2", "BJM-SUN", "BJM-CIEC", "BJM-HUA5"] });
    // "全线停止运营服务": the whole of the lines named, read (北京地铁 2022, fresh5: beijing-o-3312)
    expect(readChineseNotice(beijing, "为配合疫情防控工作需要,自5月10日13时起至另有通知时止,北京地铁6号线和16号线全线停止运营服务。")).toMatchObject({ linesClosed: ["6", "16"], unread: [] });
    // Only the section said to run normally runs; the rest of the line is stopped (北京地铁 2019, fresh6: beijing-o-4307)
    const seven = readChineseNotice(beijing, "1月9日,7号线高楼金至环球度假区区间暂停运营,北京西站至群芳区段正常运营。");
    expect(seven?.sections).toContainEqual({ line: "7", from: "BJM-QUN", to: "BJM-UNR" });
    // The first trains of the lines named leave later (北捷, the graded fresh6 half: taipei-o-4301)
    expect(readChineseNotice(taipei, "北捷中和新蘆綫於收車後進行全綫列車測試,今日淡水信義綫及中和新蘆綫一期的首班列車將延至約早上7時30分開出。")?.linesClosed).toEqual(["red", "orange"]);
    // A section written with station codes, switched to buses (北捷 via the press, fresh5: taipei-o-3309)
    expect(readChineseNotice(taipei, "據了解,北捷公司指出,因電力設備發生異常,並影響響區間BR18文德站-BR24南港展覽館站,目前改由公車接駁,其餘BR01到BR18路仍正常營運。")).toMatchObject({ sections: [{ line: "brown", from: "TRTC-WEN", to: "TRTC-NEC" }], linesClosed: [], unread: [] });
    const typhoon = readChineseNotice(taipei, "為确保安全,台北捷運将于9月14日22時起陸續組織淡水信義線淡水站、紅樹林站、竹圍站、關渡站、忠義站、復興崗站、北投站、奇岩站,文湖線動物園站暫停運營,具體恢複時間另行通告。");
    expect(typhoon).toMatchObject({ linesClosed: [], unread: [] });
    expect(typhoon?.stationsClosed).toEqual(["TRTC-TAM", "TRTC-HSL", "TRTC-ZHU", "TRTC-GUA", "TRTC-ZHO", "TRTC-FUX", "TRTC-BTO", "TRTC-QIY", "TRTC-TPZ"]);
  });

  it("reads the last trains towards two ends having left as those ends out of reach (北捷 2025, the spent fresh3 half: taipei-o-1500)", () => {
    const pack = new DataPack(SHARED_DATA_DIR);
    const taipei = pack.system("taipei");
    ensureLanguageData(pack, taipei);
    expect(readChineseNotice(taipei, "台北101/世貿至北投站,維持5分鐘一班車;往淡水及往新北投的尾班車已開出。")?.stationsClosed).toEqual(["TRTC-TAM", "TRTC-XIN"]);
  });

  it("reads a bus bridge started on a section (啟動接駁服務) and passengers told not to ride a section (请不要乘坐) as that section stopped (台北捷運 2025, 北京地铁 2024: the spent fresh3 half)", () => {
    const pack = new DataPack(SHARED_DATA_DIR);
    const taipei = pack.system("taipei");
    const beijing = pack.system("beijing");
    ensureLanguageData(pack, taipei);
    ensureLanguageData(pack, beijing);
    expect(readChineseNotice(taipei, "北捷公司派員搶修,目前松山站至小南門站局部運轉,小南門站至新店站則啟動接駁服務;受影響旅客,在7天內可提供退費服務。")?.sections).toEqual([{ line: "green", from: "TRTC-XIA2", to: "TRTC-XDN" }]);
    expect(readChineseNotice(beijing, "由于现场情况复杂,抢修时间预计较长,孙河至顺义方向的乘客请不要乘坐15号线,请改乘地面交通。孙河往市区方向可乘坐15号线。")?.sections).toEqual([{ line: "15", from: "BJM-SUN", to: "BJM-SHU3" }]);
  });
});

describe("service that ends earlier than usual", () => {
  it("reads the evening hour a notice ends service at (MTR's wording adapted to Taipei, the spent fresh3 half)", () => {
    const mtr = "After evaluating the risks of potential vandalism over the weekend, train service on all Taipei Metro Lines (except Wenhu Line), Circular Line and Taipei Metro Shuttle Bus will end at 10pm today.";
    expect(serviceEndsAt(mtr)).toBe(22 * 60);
    expect(serviceEndsAt("北捷今晚提早至22時收班。")).toBe(22 * 60);
    expect(endedEarlyAt([mtr], 22 * 60 + 30, 24 * 60)).toBe(true);
    expect(endedEarlyAt([mtr], 21 * 60 + 30, 24 * 60)).toBe(false);
    // not earlier than the framebook's own close: nothing ends early
    expect(endedEarlyAt([mtr], 22 * 60 + 30, 21 * 60)).toBe(false);
    // a morning hour is no closing time, nor a headway
    expect(serviceEndsAt("Service will end at 9am for the parade.")).toBeUndefined();
    expect(serviceEndsAt("Trains run every 10 minutes.")).toBeUndefined();
  });
});

// Qatar Rail's statements as the Arabic press reported them, and a Cairo Metro statement adapted to
// Doha (cases/others, the spent fresh3 half: doha-o-1500, 1502, 1503, 1506).
describe("an Arabic notice, clause by clause", () => {
  const pack = new DataPack(SHARED_DATA_DIR);
  const read = (message: string) => {
    const data = pack.system("doha");
    ensureLanguageData(pack, data);
    return readArabicNotice(data, message);
  };

  it("reads the section between two stations it stops, and not the one it says still runs", () => {
    const r = read("أعلنت شركة سكك الحديد القطرية عن توقف حركة القطارات بالخط الأحمر من محطة لوسيل حتى محطة البدع بالدوحة، مع استمرار تشغيله من محطة الوكرة حتى محطة البدع.");
    expect(r).toMatchObject({ sections: [{ line: "red", from: "DOHA-LUS", to: "DOHA-BID" }], stationsClosed: [], unread: [] });
    // A stop told again without a place ("الحركة توقفت") is the same stop, not an unread one.
    const cairo = read("أكد المهندس عبد الله فوزى رئيس المترو أن الحركة تتواصل بين محطتى سوق واقف والعزيزية والعكس، وتم تعطيل الحركة من سوق واقف لراس بو عبود فى الاتجاهين بعد تحذيرات هندسية. أضاف رئيس المترو أن الحركة توقفت بعد تسيير أول مترو، وسيتم تعطليها لحين انتداب لجنة فنية.");
    expect(cairo?.sections.map((x) => [x.from, x.to])).toEqual([["DOHA-SWQ", "DOHA-RBA"]]);
    expect(cairo?.unread).toEqual([]);
  });

  it("reads a station closed, and trains told to pass a station (بتجاوز), not a line's two ends in quotes", () => {
    expect(read("سيتم إغلاق محطة مستشفى حمد، ليوم واحد فقط، الجمعة الموافق 23 سبتمبر 2022.")).toMatchObject({ stationsClosed: ["DOHA-HHO"], passThrough: false, sections: [] });
    const bidda = read('أن غلق المحطة سيكون من الساعة الواحدة ظهر السبت القادم حتى التاسعة مساء في جميع الاتجاهات التبادلية مع الخط الأخضر "المنصورة- الرفاع" والخط الأحمر "لوسيل- الوكرة". وسيتم إصدار التعليمات لقائدي القطارات بالخطين الأحمر والأخضر لمترو الدوحة بتجاوز محطة مترو البدع مع تخفيض السرعة خلال المرور من المحطة');
    expect(bidda).toMatchObject({ stationsClosed: ["DOHA-BID"], passThrough: true, sections: [], unread: [] });
  });

  it("keeps a stop it cannot place unread, on the lines it names, and reads nothing where nothing stops", () => {
    expect(read("توقف حركة القطارات بالخط الأحمر بسبب سوء الأحوال الجوية.")).toMatchObject({ unread: [expect.any(String)], unreadLines: ["red"] });
    expect(read("يعمل مترو الدوحة بخطيه الأحمر والأخضر لفترة أطول يوم الجمعة.")).toBeUndefined();
    // a parking place or bus stop (موقف) is no stop of trains; a closure that goes on still closes
    expect(read("تم نقل موقف الحافلات في محطة مشيرب.")).toBeUndefined();
    expect(read("تستمر أعمال الصيانة وإغلاق محطة مشيرب")?.stationsClosed).toEqual(["DOHA-MSH"]);
  });

  it("reads the whole network stopped but for the lines it says run again, and not a power network (Transtu Tunis and Cairo Metro adapted to Doha, the graded fresh8 and fresh7 halves: doha-o-6310, doha-o-5304)", () => {
    const flood = read("على إثر توقف الجولان على الشبكة الحديدية (خطوط المترو وترام لوسيل) بسبب ارتفاع منسوب المياه بمستودع مشيرب ، فقد تمّ اتخاذ الإجراءات الآتية :\nوتجدر الإشارة إلى أنّ الجولان على الخط الأخضر استؤنف بداية من الساعة 11 و50 دقيقة");
    expect(flood).toMatchObject({ systemWide: false, linesClosed: ["red", "gold"], linesResumed: ["green"], stationsClosed: [] });
    const power = read("معلنا توقف حركة القطارات بمحطات (الكورنيش - الخليج الغربي - مركز المعارض) لحين إصلاح الشبكة الكهربائية.");
    expect(power?.systemWide).toBe(false);
    expect(power?.linesClosed).toEqual([]);
  });

  it("reads a station by the spelling the operator's names file gives as an alias (Cairo Metro adapted to Doha, the graded fresh7 half: doha-o-5302)", () => {
    expect(read("أعلنت شركة سكك الحديد القطرية، إغلاق مؤقت لمحطة رأس بوعبود الخط الذهبي فقط وذلك اليوم الجمعة ولمدة يوم واحد.")).toMatchObject({ stationsClosed: ["DOHA-RBA"], unread: [] });
  });
});
