import { describe, expect, it } from "vitest";
import { DataPack } from "../../../tools/data/datapack.ts";
import { SHARED_DATA_DIR } from "../../../test/paths.ts";
import { ensureLanguageData } from "../../framebook/local-names.ts";
import { readTextRequest } from "./clarify.ts";

const pack = new DataPack(SHARED_DATA_DIR);
const request = (system: string, text: string, selected = { origin: false, destination: false }) => {
  const data = pack.system(system);
  ensureLanguageData(pack, data);
  return readTextRequest(data, [text], selected);
};
/** The question's station choices, as station ids. */
const choices = (q: ReturnType<ReturnType<typeof request>["question"]>) =>
  q?.choices.flatMap((c) => c.events.flatMap((e) => (e.type === "station_selected" ? [e.station_id] : []))).sort();

describe("a place several stations serve is asked about, with the stations as choices", () => {
  it("Beijing 'from tiananmen to the airport': which Tian'anmen, then which airport", () => {
    const first = request("beijing", "from tiananmen to the airport").question("trip", false, false);
    expect(first?.kind).toBe("station");
    expect(choices(first)).toEqual(["BJM-TIA", "BJM-TIA2"]);
    // Once the start is chosen on screen, the airport is asked about.
    const second = request("beijing", "from tiananmen to the airport", { origin: true, destination: false }).question("trip", true, false);
    expect(choices(second)).toEqual(["BJM-2HH", "BJM-3HH", "BJM-DAJ3"]);
  });

  it("BART and CTA: two airports, asked; MARTA and Doha: one, no question about it", () => {
    expect(choices(request("bart", "Embarcadero to the airport").question("trip", true, false))).toEqual(["BART-OAKL", "BART-SFO"]);
    expect(choices(request("cta", "Howard to the airport").question("trip", true, false))).toEqual(["CTA-MID", "CTA-ORD"]);
    const marta = request("marta", "airport to five points");
    expect(marta.trip.origin?.id).toBe("MARTA-AP");
    expect(marta.trip.destination?.id).toBe("MARTA-FP");
    expect(marta.question("trip", true, true)).toBeUndefined();
    expect(request("doha", "من مشيرب إلى المطار").trip.destination?.id).toBe("DOHA-HIA");
  });
});
