import { describe, expect, it } from "vitest";
import { DataPack } from "../../tools/data/datapack.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { ensureLanguageData } from "../framebook/local-names.ts";
import { saysLiftOut, skippedStations, trainsRunThrough } from "./notices.ts";

describe("a closed station's notice: do trains still run through it?", () => {
  it("reads skipping and running through in the words operators use", () => {
    expect(trainsRunThrough("Blue and Brown line trains skip this station.")).toBe(true);
    expect(trainsRunThrough("Zhongxiao Fuxing is closed for a water leak. Blue and Brown trains go straight through it.")).toBe(true);
    expect(trainsRunThrough("Trains will not stop at Five Points.")).toBe(true);
    expect(trainsRunThrough("Red Line trains pass through without stopping.")).toBe(true);
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
