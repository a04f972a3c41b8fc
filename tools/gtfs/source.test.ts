import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { zipSync, type Zippable } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import { SHARED_DIR } from "../../test/paths.ts";
import { readGtfsFeed } from "./feed.ts";
import { GtfsSourceError, readFeedSource } from "./source.ts";

const HYDERABAD_DIR = path.join(SHARED_DIR, "gtfs", "hyderabad");
const BUSAN_DIR = path.join(SHARED_DIR, "gtfs", "busan");

// The real feed is read once for the whole file.
const hyderabadFiles = readFeedSource(HYDERABAD_DIR);

const tempRoot = mkdtempSync(path.join(os.tmpdir(), "gtfs-source-"));
afterAll(() => rmSync(tempRoot, { recursive: true, force: true }));
let tempCount = 0;
const tempPath = (name: string): string => path.join(tempRoot, `${tempCount++}-${name}`);

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A zip of `entries` (path inside the zip → bytes), written to a temporary file. */
function writeZip(entries: Record<string, Uint8Array>): string {
  const file = tempPath("feed.zip");
  writeFileSync(file, zipSync(entries as Zippable, { level: 1 }));
  return file;
}

/** The Hyderabad folder's files, as zip entries under `prefix`. */
function hyderabadEntries(prefix: string): Record<string, Uint8Array> {
  const entries: Record<string, Uint8Array> = {};
  for (const name of readdirSync(HYDERABAD_DIR)) entries[prefix + name] = readFileSync(path.join(HYDERABAD_DIR, name));
  return entries;
}

describe("readFeedSource on a folder", () => {
  it("reads every .txt file of the folder, by name, and nothing else", () => {
    const busan = readFeedSource(BUSAN_DIR);
    // busan/ also holds LICENSE, which is not part of the feed.
    expect([...busan.keys()]).toEqual(["agency.txt", "calendar.txt", "feed_info.txt", "routes.txt", "shapes.txt", "stop_times.txt", "stops.txt", "transfers.txt", "trips.txt"]);
    expect(busan.get("agency.txt")).toBe(readFileSync(path.join(BUSAN_DIR, "agency.txt"), "utf8"));
    expect([...hyderabadFiles.keys()]).toHaveLength(10);
  });

  it("strips a UTF-8 byte-order mark and leaves sub-folders alone", () => {
    const dir = tempPath("bom");
    mkdirSync(path.join(dir, "old"), { recursive: true });
    writeFileSync(path.join(dir, "stops.txt"), "\uFEFFstop_id,stop_name\nS1,Alpha\n");
    writeFileSync(path.join(dir, "old", "routes.txt"), "route_id\n");
    writeFileSync(path.join(dir, "notes.md"), "not a feed file\n");
    expect(readFeedSource(dir)).toEqual(new Map([["stops.txt", "stop_id,stop_name\nS1,Alpha\n"]]));
  });
});

describe("readFeedSource on a zip", () => {
  it("reads a zip of the Hyderabad folder (files in one sub-folder) the same as the folder", () => {
    const zip = writeZip({ ...hyderabadEntries("hmrl-gtfs/"), "__MACOSX/hmrl-gtfs/._stops.txt": bytes("junk") });
    const fromZip = readFeedSource(zip);
    expect(fromZip).toEqual(hyderabadFiles);
    const reading = readGtfsFeed(fromZip);
    expect(reading.problems.filter((p) => p.severity === "error")).toEqual([]);
    expect(reading.feed!.routes.map((r) => r.route_id)).toEqual(["RED", "GREEN", "BLUE"]);
    expect(reading.feed!.stops.filter((s) => s.location_type === 1)).toHaveLength(57);
  });

  it("reads files at the top of the zip, preferring them to any in folders, and strips a byte-order mark", () => {
    const zip = writeZip({ "stops.txt": bytes("\uFEFFstop_id\nS1\n"), "extra/stops.txt": bytes("stop_id\nS9\n"), "README.md": bytes("x") });
    expect(readFeedSource(zip)).toEqual(new Map([["stops.txt", "stop_id\nS1\n"]]));
  });

  it("refuses a zip with feed files in several folders, naming them", () => {
    const zip = writeZip({ "a/stops.txt": bytes("stop_id\n"), "b/stops.txt": bytes("stop_id\n") });
    expect(() => readFeedSource(zip)).toThrow(`the zip ${zip} holds .txt files in several folders (a, b)`);
  });
});

describe("readFeedSource refuses what is not a feed, naming the path", () => {
  it("a path that does not exist", () => {
    const missing = path.join(tempRoot, "no-such-feed");
    expect(() => readFeedSource(missing)).toThrow(new GtfsSourceError(missing, `GTFS feed not found: ${missing} does not exist`));
  });

  it("a file that is neither a folder nor a zip", () => {
    const file = tempPath("stops.txt");
    writeFileSync(file, "stop_id\n");
    expect(() => readFeedSource(file)).toThrow(`${file} is neither a folder nor a .zip file`);
  });

  it("a .zip that is not a zip", () => {
    const file = tempPath("broken.zip");
    writeFileSync(file, "this is not a zip archive");
    expect(() => readFeedSource(file)).toThrow(`cannot read the zip ${file}:`);
  });

  it("a file that is not UTF-8", () => {
    const dir = tempPath("latin1");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "stops.txt"), Uint8Array.from([0x73, 0x74, 0x6f, 0x70, 0x5f, 0x69, 0x64, 0x0a, 0x4d, 0xfc, 0x6e, 0x0a]));
    expect(() => readFeedSource(dir)).toThrow(`stops.txt in ${dir} is not UTF-8 text`);
    const zip = writeZip({ "feed/stops.txt": Uint8Array.from([0x4d, 0xfc, 0x6e]) });
    expect(() => readFeedSource(zip)).toThrow(`feed/stops.txt in ${zip} is not UTF-8 text`);
  });

  it("throws GtfsSourceError carrying the path", () => {
    const missing = path.join(tempRoot, "gone");
    let caught: unknown;
    try {
      readFeedSource(missing);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GtfsSourceError);
    expect((caught as GtfsSourceError).sourcePath).toBe(missing);
  });
});
