// What the interlock reads from operators' own words (texts from cases/others/, adapted only in
// names): a station shut by a strike is passed through, a part of a station that shuts or opens is
// no closure, trains that "will stop at" a station do not stop service, an advisory whose words close
// nothing closes no line, and Chinese notices name lines by name and stop sections between stations.
import { describe, expect, it } from "vitest";
import type { Disruption } from "../../../tools/data/schemas.ts";
import { ensureLanguageData } from "../../framebook/local-names.ts";
import { testPack } from "../testing.ts";
import { readDisruption, type Closures } from "./service.ts";
import { checkService } from "../interlock.ts";
import { routeEngineFor } from "../../../tools/network/index.ts";

const pack = testPack();

function read(system: string, d: Omit<Disruption, "id">): Closures {
  const data = pack.system(system);
  ensureLanguageData(pack, data);
  return readDisruption(data, { id: "n1", ...d } as Disruption);
}

const summary = (c: Closures) => ({
  lines: [...c.lines.keys()].sort(),
  tracks: c.tracks.size,
  stations: Object.fromEntries(c.stations),
  unread: c.unread.map((u) => u.lines),
  system: c.systemSuspended,
});

describe("the interlock reads operators' station notices as they mean them", () => {
  it("passes trains through a station closed by a strike (TfL): it lacks staff, not track", () => {
    const c = read("marta", { type: "station_closure", severity: "critical", station_id: "MARTA-SS", message: "Sandy Springs: Closed - This station is closed due to strike action by the RMT." });
    expect(summary(c).stations).toEqual({ "MARTA-SS": { why: "n1", passThrough: true } });
    // unless the words say trains cannot pass
    const cut = read("marta", { type: "station_closure", severity: "critical", station_id: "MARTA-SS", message: "Sandy Springs is closed by a strike and trains cannot pass through." });
    expect(summary(cut).stations).toEqual({ "MARTA-SS": { why: "n1", passThrough: false } });
    // a closure for anything else is not passed through on a guess
    const police = read("marta", { type: "station_closure", severity: "critical", station_id: "MARTA-SS", message: "Sandy Springs station is closed for police activity." });
    expect(summary(police).stations).toEqual({ "MARTA-SS": { why: "n1", passThrough: false } });
    expect(summary(cut).stations).toEqual({ "MARTA-SS": { why: "n1", passThrough: false } });
  });

  it("reads a station entrance that closes, or a temporary station that opens, as no closure (CTA)", () => {
    const entrance = read("cta", {
      type: "station_entry_restriction",
      severity: "info",
      line: "red",
      station_id: "CTA-ARG",
      message: "Argyle Temporary Station and Entrance Opens: The current Argyle station entrance is closed. The new, temporary Argyle station entrance is next to the closed one, 50 feet west.",
    });
    expect(summary(entrance)).toMatchObject({ lines: [], tracks: 0, stations: {}, unread: [] });
    const opens = read("cta", {
      type: "station_entry_restriction",
      severity: "info",
      line: "red",
      station_id: "CTA-BRM",
      message: "Bryn Mawr Temporary Station Opens: New, temporary Bryn Mawr station is open. Separate entry for each direction: Howard-bnd enter thru old entrance; 95th-bnd enter on B'way north of Bryn Mawr.",
    });
    expect(summary(opens)).toMatchObject({ lines: [], tracks: 0, stations: {}, unread: [] });
  });

  it("closes no line for an advisory whose words close nothing, and reads 'will stop at' as a stop made, not service stopped (CTA)", () => {
    const shared = read("cta", {
      type: "planned_maintenance",
      severity: "info",
      line: "red",
      message: "Red and Purple Line Trains Share Track between Thorndale and Belmont (Updated): Red and Purple line trains share tracks btwn Thorndale and Belmont. Purple Line Express trains continue to make only express stops between Howard and Belmont.",
    });
    expect(summary(shared)).toMatchObject({ lines: [], tracks: 0, unread: [] });
    const boarding = read("cta", {
      type: "planned_maintenance",
      severity: "info",
      line: "brown",
      station_id: "CTA-BLM",
      message: "Boarding Change at Belmont: At Belmont station, Kimball-bound Brown Line trains resume stopping on outer track; Linden-bound Purple Line Exp trains continue to board/exit on inner track.",
    });
    expect(summary(boarding)).toMatchObject({ lines: [], tracks: 0, unread: [] });
    const extra = read("cta", {
      type: "crowd_advisory",
      severity: "info",
      line: "purple",
      station_id: "CTA-SHE",
      message: "Service for 2023 Cubs Weekday Night Games and Wrigley Field Concerts: Loop-bound Purple Line Express trains will stop at Sheridan for all weekday Cubs night games and Wrigley Field concerts.",
    });
    expect(summary(extra).unread).toEqual([]);
    // a warning that says service stops somewhere it cannot map is still unread
    expect(summary(read("cta", { type: "crowd_advisory", severity: "warning", message: "Trains will not stop at the stadium tonight." })).unread).toEqual([null]);
  });

  it("reads a lift back in service as no lift out", () => {
    const c = read("cta", { type: "elevator_outage", severity: "info", line: "brown", station_id: "CTA-PAU", message: "Elevator at Paulina Back in Service: The Loop-bound platform elevator at Paulina (Brown Line) is back in service." });
    expect(c.liftsOut.size).toBe(0);
    const out = read("cta", { type: "elevator_outage", severity: "info", line: "brown", station_id: "CTA-PAU", message: "Elevator at Paulina Temporarily Out-of-Service." });
    expect([...out.liftsOut.keys()]).toEqual(["CTA-PAU"]);
  });
});

// Taipei Rapid Transit Corporation typhoon statements (2015, 2017, via CNA and Liberty Times) and
// Beijing notices (北京地铁 2024 National Day closures, 北京市交通委 wind recovery, 亦庄线 split operation).
describe("the interlock reads Chinese notices that name lines by name and sections between stations", () => {
  it("stops the named line, the section between two stations and the branch ends listed beside it, and nothing else", () => {
    const c = read("taipei", {
      type: "typhoon_warning",
      severity: "critical",
      message: "臺北捷運文湖線、高架平面路段(圓山站至淡水站、新北投站、小碧潭站)因風速已達停駛標準,於11點停止營運,呼籲民眾盡量避免外出,以策安全。至於淡水信義線地下段、松山新店線、中和新蘆線、板南線持續運轉,並視人潮實際狀況彈性調整班距。",
    });
    const s = summary(c);
    expect(s.lines).toEqual(["brown"]);
    expect(s.tracks).toBeGreaterThan(10);
    expect(c.tracks.has("TRTC-JNT|TRTC-YUA")).toBe(true);
    // underground Red Line track stays open
    expect(c.tracks.has("TRTC-TPM|TRTC-ZSN")).toBe(false);
    expect(Object.keys(s.stations).sort()).toEqual(["TRTC-XIA3", "TRTC-XIN"]);
    expect(s.unread).toEqual([]);
  });

  it("reads the subject of a sentence whose stop comes in a later clause", () => {
    const c = read("taipei", {
      type: "typhoon_warning",
      severity: "critical",
      message: "颱風尼莎襲台,台北大眾捷運股份有限公司今天晚間近11時表示,圓山站到淡水站、新北投站、小碧潭站及文湖線,因風速達停駛標準,目前暫停營運。",
    });
    expect(summary(c)).toMatchObject({ lines: ["brown"], unread: [] });
    expect(c.tracks.has("TRTC-JNT|TRTC-YUA")).toBe(true);
  });

  it("closes a station whose transfer and passage close, not the lines (前门 2024)", () => {
    const c = read("beijing", { type: "station_closure", severity: "warning", message: "2024年9月30日首班车起至10月7日末班车止,2号线、8号线前门站封站,封站期间各次列车在该站通过不停车,前门站停止2号线和8号线换乘,过街通道封闭。" });
    expect(summary(c)).toEqual({ lines: [], tracks: 0, stations: { "BJM-QIA": { why: "n1", passThrough: true } }, unread: [], system: null });
  });

  it("closes a station shut with its transfer in one clause (知春路 2015, the spent fresh2 half): 封站 is the station's", () => {
    const c = read("beijing", { type: "station_closure", severity: "warning", message: "具体方案为,2月11日首班车起至2月17日末班车止,地铁10号线、13号线知春路站临时封站、停止换乘,10号线、13号线双方向各次列车在知春路站通过不停车。" });
    expect(summary(c)).toEqual({ lines: [], tracks: 0, stations: { "BJM-ZHL3": { why: "n1", passThrough: true } }, unread: [], system: null });
  });

  it("passes trains through the stations a station-closure notice says they bypass or will not be stopping at (Qatar Rail, the spent fresh2 half)", () => {
    const bypass = read("doha", { type: "station_closure", severity: "warning", line: "red", message: "[Red] trains are bypassing Al Qassar in both directions because of a water condition at Al Qassar." });
    expect(summary(bypass)).toEqual({ lines: [], tracks: 0, stations: { "DOHA-QAS": { why: "n1", passThrough: true } }, unread: [], system: null });
    const list = read("doha", {
      type: "station_closure",
      severity: "warning",
      message: "Qatar Rail in Doha has just announced an expected delay on the Doha Metro’s Red Line. Trains will not be stopping at the following stations: Katara, Al Qassar, DECC, and Corniche.",
    });
    expect(Object.keys(summary(list).stations).sort()).toEqual(["DOHA-COR", "DOHA-DEC", "DOHA-KAT", "DOHA-QAS"]);
    expect(summary(list).unread).toEqual([]);
  });

  it("closes the section of a line a notice names after its dates, and reads 'no Wenhu line at' a station of it as that section (TfL, adapted: the spent fresh half)", () => {
    const c = read("taipei", {
      type: "line_suspension",
      severity: "warning",
      station_id: "TRTC-ZXF",
      message:
        "From Saturday 15 January to mid May 2022, the Wenhu line will be closed between Daan and Nanjing Fuxing as part of major upgrade works. \n\nDuring this time, there will be no Wenhu line at Zhongxiao Fuxing station. All other lines will be operating as normal.",
    });
    expect(summary(c)).toMatchObject({ lines: [], unread: [], system: null });
    expect([...c.tracks.keys()].sort()).toEqual(["TRTC-DAA|TRTC-ZXF", "TRTC-NJF|TRTC-ZXF"]);
  });

  it("stops nothing where only some trains end short (MTA wording adapted: the spent fresh halves), and refers the line's trips where all of them do", () => {
    const some = read("taipei", { type: "delay", severity: "warning", message: "Some southbound [Green] trains end at Dapinglin or Jingmei because of switch problems at Qizhang." });
    expect(summary(some)).toMatchObject({ lines: [], tracks: 0, unread: [] });
    const all = read("marta", { type: "delay", severity: "warning", message: "Northbound [Red] trains end at Medical Center because of a train with mechanical problems at Sandy Springs." });
    expect(summary(all).unread).toEqual([["red"]]);
  });

  it("reads trains that 'shuttle' as running, and buses that replace trains as a stop (MARTA 2017, the spent fresh half; CTA 2024, fresh2)", () => {
    const shuttle = read("marta", {
      type: "planned_maintenance",
      severity: "warning",
      message: "Saturday August 19 and Sunday August 20, 2017,  Red/Gold Line trains will operate on a weekend single tracking schedule.  (Doraville) Gold Line trains  will continue to the Airport every twenty (20) minutes throughout the day. (North Springs) Red Line trains  will shuttle from Lindbergh to North Springs.",
    });
    expect(summary(shuttle)).toMatchObject({ lines: [], tracks: 0, unread: [] });
    const buses = read("cta", { type: "service_change", severity: "info", message: "Shuttle buses replace Purple Line rail service between Linden and Howard." });
    expect(summary(buses).tracks + summary(buses).unread.length + summary(buses).lines.length).toBeGreaterThan(0);
  });

  it("reads 'no down escalator service to the Wenhu line platforms' as the station's escalator, not the line (TfL adapted, the spent fresh2 half)", () => {
    const c = read("taipei", {
      type: "elevator_outage",
      severity: "warning",
      station_id: "TRTC-ZXF",
      message: "ZHONGXIAO FUXING STATION: from Monday 28 February until early June 2022 escalator maintenance work is taking place. There will be no down escalator service to the Wenhu line platforms between 0700 and 1000, Monday to Friday.",
    });
    expect(summary(c)).toMatchObject({ lines: [], tracks: 0, unread: [] });
    expect([...c.liftsOut.keys()]).toEqual(["TRTC-ZXF"]);
  });

  it("keeps a station skipped one way ('95th-bound … will not stop at') for trips the other way (CTA 2020, the spent fresh2 half)", () => {
    const data = pack.system("cta");
    ensureLanguageData(pack, data);
    const d = { id: "n1", type: "planned_maintenance", severity: "warning", line: "red", message: "95th-bound Red Line trains will not stop at Granville, Thorndale or Bryn Mawr stations. Rte 84 buses connect to Berwyn station." } as Disruption;
    const c = readDisruption(data, d);
    expect(c.stations.get("CTA-BRM")).toMatchObject({ passThrough: true, bound: { line: "red", toward: "CTA-95D" } });
    const trip = (from: string, to: string) => {
      const planned = routeEngineFor(data).route(from, to);
      return checkService({ system: data, state: { route: { stops: planned.stops } } as never, turns: [], disruptions: [d], now: { iso: "2020-08-05T09:00" } });
    };
    // boarding at Bryn Mawr towards Howard: those trains stop
    expect(trip("CTA-BRM", "CTA-HOW")).toEqual([]);
    // leaving at Bryn Mawr from Howard: the 95th-bound train does not stop there
    expect(trip("CTA-HOW", "CTA-BRM").join(" ")).toContain("station_closed: CTA-BRM");
  });

  it("refers nothing where a Chinese notice shuts exits and gates only (台北捷運 New Year 2023, the spent fresh half)", () => {
    const c = read("taipei", {
      type: "station_closure",
      severity: "info",
      message: "台北捷运表示,自2022年12月31日(周六)22时起至2023年1月1日(周日)早上8时止, 台北捷运台大医院站暂时关闭1号及4号出口往228和平公园侧铁门,往公园路方向正常通行;2022年1月1日(周日)清晨4时起至8时止,暂时关闭中正纪念堂站7号出口,及小南门站3、4号出口,至于其他出入口正常开放使用。",
    });
    expect(summary(c)).toEqual({ lines: [], tracks: 0, stations: {}, unread: [], system: null });
  });

  it("reads buses that replace a line's trains between two stations as that section closed (CTA 2023, the spent fresh3 half)", () => {
    const c = read("cta", { type: "planned_maintenance", severity: "warning", line: "orange", message: "Accessible shuttle bus service will replace Orange Line trains between Midway and Kedzie Stations." });
    expect(summary(c)).toMatchObject({ lines: [], unread: [] });
    expect([...c.tracks.keys()].sort()).toEqual(["CTA-KDZ|CTA-PUL", "CTA-MID|CTA-PUL"]);
  });

  it("stops nothing where every line runs again, and refers only the trips of a line named by name where it cannot tell where", () => {
    const resumed = read("beijing", {
      type: "service_update",
      severity: "info",
      message: "20时10分,13号线第一列恢复运营线路从霍营站发出,之后昌平线、S1线、房山线、5号线、8号线、燕房线陆续发车,截至21时,所有受极端大风天气影响的地面高架线路均已全部恢复运营。",
    });
    expect(summary(resumed)).toMatchObject({ lines: [], tracks: 0, unread: [] });
    const split = read("beijing", {
      type: "line_suspension",
      severity: "warning",
      message: "受降雨大风天气影响,地铁亦庄线沿线一树木倒伏在荣昌东街至同济南路区段运营正线,地铁公司立即启动应急预案,组织开展抢险工作。为确保运营安全及乘客出行安全,目前亦庄线采取亦庄火车站至同济南路区段,荣京东街至宋家庄区段分段运营措施。",
    });
    // only the sections named run ("…分段运营"): the stretch between them stops
    expect(summary(split).unread).toEqual([]);
    expect(split.tracks.has("BJM-ROD2|BJM-TON")).toBe(true);
  });
});

// Texts of the spent fresh half (cases/others, graded once on 2026-12-07), each adapted only in names:
// MTA NYCT summaries (2017–2019), WMATA 2010, a 广州地铁 / 深圳地铁 / 北京地铁 notice and an MTR
// statement adapted to Beijing and Taipei.
describe("what grading the fresh texts once found", () => {
  it("reads 'trains end at' as a stop it cannot place (referred), and 'running express from A to B' as the stations between skipped", () => {
    expect(summary(read("marta", { type: "delay", severity: "warning", line: "red", message: "Northbound [Red] trains end at Medical Center because of a train with mechanical problems at Sandy Springs." })).unread).toEqual([["red"]]);
    const express = read("taipei", { type: "delay", severity: "warning", line: "red", message: "Southbound [Red] trains are running express from Shilin to Minquan West Road because of switch problems at Shilin." });
    expect(Object.keys(summary(express).stations).sort()).toEqual(["TRTC-JNT", "TRTC-YUA"]);
    expect(Object.values(summary(express).stations).every((x) => x.passThrough)).toBe(true);
  });

  it("closes the one section for every line named before it, and keeps the line that 'provides alternate service' open", () => {
    const two = read("cta", { type: "line_suspension", severity: "critical", line: "brown", message: "There is no [Brown] and [Purple] train service between Belmont and Merchandise Mart because of an investigation of a person struck by a train at Armitage." });
    expect(summary(two).lines).toEqual([]);
    expect(two.tracks.has("CTA-ARM|CTA-SED")).toBe(true);
    const alternate = read("cta", { type: "planned_maintenance", severity: "warning", line: "purple", message: "TRACK MAINTENANCE [Purple] No trains between Belmont and Howard [Red] trains provide alternate service" });
    expect(summary(alternate).lines).toEqual([]);
    expect(alternate.tracks.has("CTA-BLM|CTA-WIL")).toBe(true);
  });

  it("reads stations listed before 'stations were closed' with trains passing through them", () => {
    const c = read("doha", {
      type: "station_closure",
      severity: "critical",
      message: "Shortly before 8 a.m. the Al Shaqab and Al Messila Metro stations were temporarily closed due to a loss of power. High water is also an issue at Al Messila Metro station. Trains are passing through those stations without stopping.",
    });
    expect(summary(c)).toMatchObject({ stations: { "DOHA-SHA": { passThrough: true }, "DOHA-MES": { passThrough: true } }, unread: [] });
  });

  it("reads a list with 'or', a range 'thru', a section with no line named, 'disrupted between', and lifts 'removed from service' (the spent fresh2 half)", () => {
    const bypass = read("cta", { type: "planned_maintenance", severity: "warning", message: "95th-bound Trains Bypass Granville thru Bryn Mawr Stations\nPlanned Work w/Station(s) Bypassed\n95th-bound Red Line trains will not stop at Granville, Thorndale or Bryn Mawr stations." });
    expect(Object.keys(summary(bypass).stations).sort()).toEqual(["CTA-BRM", "CTA-GRN", "CTA-THN"]);
    const tube = read("bart", { type: "planned_maintenance", severity: "critical", message: "BART will be making critical repairs to the tracks and will not run trains between West Oakland and Embarcadero Stations." });
    expect([...tube.tracks.keys()]).toEqual(["BART-EMBR|BART-WOAK"]);
    const doha = read("doha", { type: "line_suspension", severity: "warning", line: "red", message: "For Doha Metro Red line users, the metro service is disrupted between Al Qassar and Legtaifiya stations. Alternative buses service has been provided between both stations" });
    expect(doha.tracks.has("DOHA-KAT|DOHA-QAS")).toBe(true);
    const lifts = read("bart", { type: "elevator_outage", severity: "warning", message: "On Monday, 3/27, we removed from service both elevators (street-level and platform-level) at Embarcadero Station." });
    expect([...lifts.liftsOut.keys()]).toEqual(["BART-EMBR"]);
  });

  it("writes out feed short forms, and reads planned work that only delays as no stop (the spent fresh2 half)", () => {
    const tweet = read("cta", { type: "line_suspension", severity: "critical", message: "[Service Disruption] Blue Line service has been temp susp btwn Harlem (O'Hare Branch) and Addison due to a med emerg on trks. Shuttle bus avail between Harlem (O'Hare) and Addison." });
    expect(tweet.tracks.has("CTA-ADD2|CTA-IRP")).toBe(true);
    expect(summary(tweet).unread).toEqual([]);
    expect(summary(read("bart", { type: "planned_maintenance", severity: "warning", message: "Delays between South Hayward and Fremont stations Sunday 7/20" })).unread).toEqual([]);
    expect([...read("taipei", { type: "escalator_outage", severity: "info", station_id: "TRTC-ZXF", message: "There will be no down escalator service to the Wenhu line platforms between 0700 and 1000, Monday to Friday." }).liftsOut.keys()]).toEqual(["TRTC-ZXF"]);
  });

  it("reads an escalator out like a lift out: a rider who cannot use stairs is asked", () => {
    const c = read("cta", { type: "elevator_outage", severity: "info", station_id: "CTA-UIC", message: "UIC-Halsted: until further notice, the 'up' escalator from the eastbound platform to the ticket hall is out of service due to a fault and it is being used as a fixed stairway." });
    expect([...c.liftsOut.keys()]).toEqual(["CTA-UIC"]);
    expect(summary(c).unread).toEqual([]);
  });

  it("reads Chinese sections with 暫停 alone and 綫, lines in Chinese numerals, every line but one, and the sections that still run", () => {
    const green = read("taipei", { type: "line_suspension", severity: "critical", message: "北捷表示,由於有人進入綠線台電大樓站路軌範圍,松山新店綫來往古亭至公館站暫停。北捷正安排免費接駁巴士來往台電大樓站及公館站,呼籲乘客考慮使用其他交通工具。" });
    expect(summary(green)).toMatchObject({ lines: [], stations: {}, unread: [] });
    expect(green.tracks.has("TRTC-GUT|TRTC-TAB")).toBe(true);
    const six = read("beijing", { type: "line_suspension", severity: "critical", message: "当前,六号线金台路站至常营站区段暂停运营服务,金安桥站至金台路站、常营站至潞城站小交路运行,线网其它线路正常运营。金台路至常营已启动公交接驳。" });
    expect(six.tracks.has("BJM-CHA|BJM-HUA2")).toBe(true);
    expect(six.tracks.has("BJM-JIN|BJM-PIN2")).toBe(false);
    const five = read("beijing", { type: "delay", severity: "warning", message: "五号线维持“天通苑北—立水桥站”和“惠新西街南口—宋家庄站”两个区段小交路运营,天通苑北至惠新西街南口站已启动公交接驳。" });
    expect(five.tracks.has("BJM-HXB|BJM-HXN")).toBe(true);
    expect(summary(five).unread).toEqual([]);
  });

  it("closes only the section a Chinese notice places on its own line, not the whole line its feed entry names (the spent fresh4 half)", () => {
    // 北京地铁 (fresh4: beijing-o-2215): Line 4 stopped between 公益西桥 and 北京南站, short runs on each side
    const four = read("beijing", { type: "line_suspension", severity: "critical", line: "4", message: "受设备故障影响,地铁4号线、大兴线列车运行受阻。目前列车在公益西桥-北京南站暂停运行,并启动公交接驳。天宫院-公益西桥、安河桥北-北京南站启用小交路运营。" });
    expect(summary(four)).toMatchObject({ lines: [], stations: {}, unread: [] });
    expect(four.tracks.has("BJM-BSR|BJM-MAJ")).toBe(true);
    expect(four.tracks.has("BJM-ANH|BJM-BEI")).toBe(false);
  });

  it("reads a bus loop or an exit that closes, the close of the day as a time, a bus bridge that ended and 'no change in timings' as no stop (the spent fresh3 half)", () => {
    // MARTA's 2025 media advisory, Qatar Rail's tweet wording (fresh3: marta-o-1307, doha-o-1305)
    const loop = read("marta", { type: "station_access", severity: "info", message: "MEDIA ADVISORY March 26, 2025 INDIAN CREEK STATION BUS LOOP TO CLOSE FOR SIX WEEKS STARTING APRIL 2ND Buses Board in Kiss & Ride Area, Service Schedules Not Affected ATLANTA – The Metropolitan Atlanta Rapid Transit Authority (MARTA) will temporarily close the bus loop at Indian Creek Station and relocate all buses to the Kiss & Ride starting April 2, 2025, for station improvement work." });
    expect(summary(loop)).toMatchObject({ lines: [], stations: {}, unread: [] });
    const day = read("doha", { type: "single_tracking", severity: "warning", message: "Updating Red, Green, Gold info: Delays/single tracking will impact service *all day* today, through closing. Trains will run every 15 min, even at rush hour, resulting in very crowded conditions." });
    expect(summary(day).unread).toEqual([]);
    // MARTA's tweet after a suspension (fresh3: marta-o-1306); a DMRC-style timing notice adapted to Doha (doha-o-1607)
    expect(summary(read("marta", { type: "service_update", severity: "info", message: "Rail service has resumed between Avondale, Kensington & Indian Creek stations, eastbound and westbound. The bus bridge has ended. Delays are continuing on Blue Line." })).unread).toEqual([]);
    expect(summary(read("doha", { type: "service_update", severity: "info", message: "There is no change in metro timings on Sundays and trains will start at 7 am," })).unread).toEqual([]);
    // Traditional Chinese exits and shutters closed (臺北市捷運工程局, 臺北捷運 2024: taipei-o-1503, 1507)
    expect(summary(read("taipei", { type: "exit_closure", severity: "info", message: "配合中和新蘆線電扶梯改善工程,三重站3號出口預定1月10日起封閉施工,預計今年11月底完工;菜寮站1號出口預定1月13日起封閉施工,預計明(113)年3月底完工。" })).unread).toEqual([]);
    expect(summary(read("taipei", { type: "exit_closure", severity: "info", message: "113年10月9日(週三)22時起至10日(週四)20時止,臺北捷運臺大醫院站1號出口暫時關閉,4號出口往228和平公園側鐵捲門暫時關閉、往公園路方向正常通行,其他出口維持正常開放。" })).unread).toEqual([]);
    // a closing word that still stops: the station itself
    expect(Object.keys(summary(read("marta", { type: "station_closure", severity: "critical", message: "Indian Creek station will close for six weeks." })).stations)).toEqual(["MARTA-IC"]);
    // nor do a part and the station named together
    // (a closure the kiosk cannot place is referred, never sold)
    const both = summary(read("marta", { type: "service_update", severity: "warning", message: "MARTA will close Indian Creek station and exits at 9pm." }));
    expect(Object.keys(both.stations).length + both.unread.length).toBeGreaterThan(0);
    const zh = summary(read("beijing", { type: "service_update", severity: "warning", message: "天安门东站出口及车站封闭。" }));
    expect(Object.keys(zh.stations).length + zh.unread.length).toBeGreaterThan(0);
  });

  it("reads a typhoon rule that stops trains only when the wind reaches a level as no stop now, and a stop because the wind reached it as one (台北捷運, the spent fresh2 and fresh3 halves)", () => {
    const rule = read("taipei", { type: "typhoon_warning", severity: "warning", message: "北捷公司表示,當平均風力達7級,列車將採減速行駛。平均風力達8級,或瞬間風力達10級,列車將暫停行駛;列車暫停行駛後,經確認風力已減弱,平均風力未達8級,或瞬間風力未達10級,且時間滿2小時,將啟動軌道巡檢作業,確認行車安全無虞後恢復營運。" });
    expect(summary(rule)).toMatchObject({ lines: [], unread: [], system: null });
    const stopped = read("taipei", { type: "line_suspension", severity: "critical", message: "臺北捷運除文湖線因瞬間風力仍達10級風暫停營運外,其餘路線均已於18時恢復營運。" });
    expect(summary(stopped).lines).toEqual(["brown"]);
  });

  it("reads an Arabic notice's section and refers no other trip (Qatar Rail, as the Arabic press reported it: the spent fresh3 half)", () => {
    const c = read("doha", { type: "line_suspension", severity: "critical", message: "أعلنت شركة سكك الحديد القطرية عن توقف حركة القطارات بالخط الأحمر من محطة لوسيل حتى محطة البدع بالدوحة، مع استمرار تشغيله من محطة الوكرة حتى محطة البدع." });
    expect(summary(c)).toMatchObject({ lines: [], stations: {}, unread: [], system: null });
    expect(c.tracks.size).toBeGreaterThan(0);
    expect([...c.tracks.keys()].every((k) => !k.includes("DOHA-WKR"))).toBe(true);
  });

  it("keeps the lines that provide alternate service with shuttle buses running (MTA wording adapted to CTA, the spent fresh3 half: cta-o-1302)", () => {
    const c = read("cta", { type: "planned_maintenance", severity: "warning", message: "TRACK MAINTENANCE [Purple] No trains between Belmont and Howard [Red] [Brown] trains and [SB] free shuttle buses provide alternate service" });
    expect(summary(c)).toMatchObject({ lines: [], unread: [] });
    expect(c.tracks.has("CTA-BLM|CTA-WIL")).toBe(true);
    expect(c.tracks.has("CTA-HOW|CTA-JRV")).toBe(false);
    // Stations that close at the normal time stop nothing (MTR 2019 adapted to Taipei, the graded fresh5 half: taipei-o-3002)
    const usual = read("taipei", { type: "service_change", severity: "info", message: "The Taipei Rapid Transit Corporation will provide normal train service on the Mid-Autumn Festival (13 September 2019) and all Taipei Metro stations will be closed at the normal time." });
    expect(summary(usual)).toMatchObject({ lines: [], stations: {}, unread: [], system: null });
    // Trains "stopping along" another line run there: a reroute, no stop (MTA wording adapted to BART, fresh5: bart-o-3001)
    const along = read("bart", { type: "delay", severity: "warning", line: "yellow", message: "Southbound [Yellow] trains are stopping along the [Blue] line from West Oakland to Daly City because of signal problems at Daly City." });
    expect(summary(along)).toMatchObject({ lines: [], tracks: 0, unread: [] });
    // Each line with its own section (SEPTA wording adapted to Beijing, fresh5: beijing-o-3003)
    const two = read("beijing", { type: "planned_maintenance", severity: "warning", message: "Bus shuttles will replace the Line 4 between Xuanwu Men and Xidan, and the Line 1 between Fuxingmen and Xidan, beginning 9 p.m. this Friday, Sept. 23 through close of service Sunday, Sept.25." });
    expect(summary(two)).toMatchObject({ lines: [], unread: [] });
    expect([...two.tracks.keys()].sort()).toEqual(["BJM-FUX|BJM-XID", "BJM-XID|BJM-XUM"]);
    // A section the line's own notice says trains "will not operate" on: that section, not the line (SEPTA 2022 adapted to Taipei, fresh5: taipei-o-3004)
    const tamsui = read("taipei", { type: "planned_maintenance", severity: "warning", line: "red", message: "Weekend Shuttle Busing Scheduled on Taipei Metro’s Tamsui-Xinyi Line\nTo facilitate the completion of the Directorate General of Highways’ two-year Provincial Highway 2 bridge rehabilitation project, Taipei Metro trains will not operate between Zhongyi and Tamsui Stations on the Tamsui-Xinyi Line on the weekend of March 26-27. Shuttle buses will be used to transport Tamsui passengers." });
    expect(summary(tamsui)).toMatchObject({ lines: [], unread: [] });
    expect(tamsui.tracks.has("TRTC-HSL|TRTC-TAM")).toBe(true);
    // "[SB] buses", not "shuttle buses" (MTA wording adapted to Taipei, the graded fresh5 half: taipei-o-3001)
    const brown = read("taipei", { type: "planned_maintenance", severity: "warning", line: "brown", message: "[Brown] No trains between Zhongxiao Fuxing and Taipei Zoo [Blue] [Red] trains and [SB] buses provide alternate service" });
    expect(summary(brown)).toMatchObject({ lines: [], unread: [] });
    expect(brown.tracks.size).toBeGreaterThan(0);
  });

  it("reads service that has ended or will not operate, and a stop on all lines as the whole system (the graded fresh4 half: CTA 2018, BART 2018, DMRC adapted to Beijing)", () => {
    const pink = read("cta", { type: "service_disruption", severity: "critical", line: "pink", message: "[Pink] train service has ended for the evening following an earlier slow moving work train near Polk." });
    expect(summary(pink).lines).toEqual(["pink"]);
    const oac = read("bart", { type: "service_change", severity: "warning", line: "oac", message: "BART Oakland Airport Connector trains will not operate on the Labor Day holiday Monday, Sep. 3.  BART Red, Yellow and Blue lines will operate on a Sunday schedule." });
    expect(summary(oac).lines).toEqual(["oac"]);
    const holi = read("beijing", { type: "service_change", severity: "critical", message: "On the day of the ‘Holi festival, i.e. 25th March, 2024 (Monday) , Metro services will NOT be available till 2:30 PM on all Lines of the Beijing Subway including Xijiao Line/Capital Airport Express." });
    expect(holi.systemSuspended).toBe("n1");
    // a facility that will not be available stops no train (Qatar's tournament notice, the spent fresh half)
    const parking = read("doha", { type: "service_update", severity: "info", message: 'The Park and Ride facilities at Education City will not be available on days with matches in the adjacent stadium.' });
    expect(summary(parking)).toMatchObject({ lines: [], stations: {}, unread: [], system: null });
  });

  it("reads the stations of a Chinese lift notice where its lifts are out, not a line's or a section's name (臺北捷運 2014, the graded fresh4 half: taipei-o-2213)", () => {
    const c = read("taipei", { type: "elevator_outage", severity: "warning", message: "臺北捷運公司為提供旅客更好的乘車環境,自97年逐步更新部分車站電梯,繼淡水線、南港線、中和線及文湖線木柵段等35站67臺電梯重置完成後,目前淡水線忠義站及板南線善導寺站,正進行電梯更新工程,期間電梯暫停開放,預計9月底前完工。" });
    expect([...c.liftsOut.keys()].sort()).toEqual(["TRTC-SHT", "TRTC-ZHO"]);
  });

  it("reads a line's 'terminating stations' as no stop (a DMRC notice adapted to Doha, the graded fresh4 half: doha-o-2205)", () => {
    const c = read("doha", { type: "service_change", severity: "info", message: "Instead of running the last services at 10.15 p.m., it has been extended till 1 a.m. of September 20 (Monday), thereby reaching all terminating stations by about 2 a.m." });
    expect(summary(c)).toMatchObject({ lines: [], stations: {}, unread: [], system: null });
  });

  it("reads numbered trains that are stopped as delays, and a measure taken only if a higher signal is hoisted (若…將) as no stop now (CTA 2019, MTR adapted to Taipei: the graded fresh4 half)", () => {
    const held = read("cta", { type: "delay", severity: "warning", line: "orange", message: "CTA Alert Orange - Trains #826 and #815 are stopped south of Harold Washington Library, track equipment derailment" });
    expect(summary(held)).toMatchObject({ lines: [], stations: {}, unread: [], system: null });
    const signal = read("taipei", { type: "typhoon_warning", severity: "warning", message: "北捷表示,中央氣象署公佈稍後將改發8號風球,鐵路及北捷接駁公車服務會維持正常直至周三晚收車。若改發9號或以上風球,露天段列車、貓空纜車及北捷接駁公車服務將即時暫停。" });
    expect(summary(signal)).toMatchObject({ lines: [], stations: {}, unread: [], system: null });
    // trains that are stopped, unnumbered, still stop service where the kiosk cannot place it
    const stopped = summary(read("cta", { type: "delay", severity: "warning", line: "orange", message: "Orange Line trains are stopped because of a derailment." }));
    expect(stopped.unread.length + stopped.lines.length).toBeGreaterThan(0);
  });
});
