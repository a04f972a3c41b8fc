// The conversion of a feed into the kiosk's system files, on small feeds written here to show one
// rule each (the real feeds are imported end to end in host/network/import.test.ts).
import { describe, expect, it } from "vitest";
import { readGtfsFeed } from "./feed.ts";
import { systemFromFeed, type ImportResult } from "./to-system.ts";

/** A two-line feed: line A (A1–X–A3) and line B (B1–X'–B3), X and X' separate stops of one name. */
function feed(change: Record<string, string> = {}): Map<string, string> {
  const files: Record<string, string> = {
    "agency.txt": "agency_name,agency_url,agency_timezone\nTest Metro,https://example.org,UTC\n",
    "stops.txt": "stop_id,stop_name,stop_lat,stop_lon,wheelchair_boarding\nA1,Alpha,0.00,0.00,1\nX,Cross,0.00,0.01,1\nA3,Gamma,0.00,0.02,2\nB1,Beta,0.01,0.01,0\nXB,Cross,0.0001,0.01,1\nB3,Delta,-0.01,0.01,1\n",
    "routes.txt": "route_id,route_short_name,route_type,route_color\nA,A,1,FF0000\nB,B,1,\n",
    "trips.txt": "route_id,service_id,trip_id,direction_id\nA,WK,a1,0\nA,WK,a2,1\nB,DATES,b1,0\nB,DATES,b2,1\n",
    "stop_times.txt": [
      "trip_id,arrival_time,departure_time,stop_id,stop_sequence",
      "a1,06:00:00,06:00:30,A1,1", "a1,06:02:00,06:02:30,X,2", "a1,06:04:00,06:04:00,A3,3",
      "a2,06:00:00,06:00:30,A3,1", "a2,06:03:00,06:03:30,X,2", "a2,06:05:00,06:05:00,A1,3",
      "b1,07:00:00,07:00:00,B1,1", "b1,07:01:00,07:01:00,XB,2", "b1,07:02:00,07:02:00,B3,3",
      "b2,07:00:00,07:00:00,B3,1", "b2,07:01:00,07:01:00,XB,2", "b2,07:02:00,07:02:00,B1,3",
    ].join("\n") + "\n",
    "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260101,20261231\n",
    // Line B runs on dates only (a Monday and a Saturday), as many real feeds say it.
    "calendar_dates.txt": "service_id,date,exception_type\nDATES,20261207,1\nDATES,20261212,1\n",
    "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nb1,07:00:00,22:00:00,300\nb2,07:00:00,22:00:00,300\n",
    "transfers.txt": "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nX,XB,2,120\nXB,X,2,120\n",
    "fare_attributes.txt": "fare_id,price,currency_type,payment_method,transfers\nF,2.5,EUR,1,\n",
  };
  return new Map(Object.entries({ ...files, ...change }));
}

function imported(files: Map<string, string>): ImportResult {
  const reading = readGtfsFeed(files);
  if (!reading.feed) throw new Error(reading.problems.map((p) => p.message).join("; "));
  return systemFromFeed(reading.feed, { id: "test" });
}

describe("a feed as the kiosk's system files", () => {
  it("joins same-name stops that transfers.txt links into one station, changed in its minimum time", () => {
    const system = imported(feed()).system!;
    const cross = system.stations.find((s) => s.name === "Cross");
    expect(cross).toMatchObject({ id: "X", lines: ["A", "B"], transfer_min: 2, gtfs_stop_ids: ["X", "XB"] });
    expect(system.stations).toHaveLength(5);
  });

  it("does not join stops of different names, and says so", () => {
    const result = imported(feed({ "transfers.txt": "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nA1,B1,2,120\n" }));
    expect(result.system?.stations.find((s) => s.id === "A1")?.lines).toEqual(["A"]);
    expect(result.notes).toContainEqual(expect.objectContaining({ severity: "warning", file: "transfers.txt", message: expect.stringContaining("the kiosk routes no walks between stations") }));
  });

  it("times each direction on its own, arrival to arrival", () => {
    const edges = imported(feed()).system!.edges.filter((e) => e.line === "A");
    expect(edges.find((e) => e.from === "A1" && e.to === "X")?.travel_time_min).toBe(2);
    expect(edges.find((e) => e.from === "A3" && e.to === "X")?.travel_time_min).toBe(3);
  });

  it("keeps step-free as the feed says it: yes, no, or unknown (never step-free)", () => {
    const stations = imported(feed()).system!.stations;
    expect(stations.find((s) => s.id === "A1")?.accessibility.step_free).toBe(true);
    expect(stations.find((s) => s.id === "A3")?.accessibility.step_free).toBe(false);
    expect(stations.find((s) => s.id === "B1")?.accessibility.step_free).toBeNull();
  });

  it("takes service hours from calendar.txt and calendar_dates.txt alike, a frequency-based trip over its whole window", () => {
    const { framebook, lines } = imported(feed()).system!;
    // Weekdays: line A from 06:00, line B's frequency window until 22:00 plus its 2-minute run.
    expect(framebook.operating_hours).toMatchObject({ default: "06:00-22:02", weekday: "06:00-22:02", saturday: "07:00-22:02" });
    expect(framebook.operating_hours.sunday).toBeUndefined();
    expect(lines.find((l) => l.id === "B")?.typical_headway_min).toBe(5);
  });

  it("draws a line without a colour grey and asks the operator to review it", () => {
    const result = imported(feed());
    expect(result.system?.lines.find((l) => l.id === "B")?.color).toBe("#808080");
    expect(result.notes).toContainEqual(expect.objectContaining({ severity: "review", file: "routes.txt", field: "route_color" }));
  });

  it("prices a feed with one fare and no rules at that fare for every trip, in its currency", () => {
    const fares = imported(feed()).system!.fares!;
    expect(fares).toMatchObject({ model: "flat", base_fare: 2.5, currency: "EUR", currency_symbol: "€" });
    expect(imported(feed()).system!.framebook).toMatchObject({ currency_code: "EUR", fare_display_format: "€X.XX" });
  });
});
