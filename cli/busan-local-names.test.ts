// The operator's Korean names for the imported Busan Metro (framebooks/busan/local-names.yaml, what
// `kiosk serve --framebooks framebooks` reads): the real feed (../shared/gtfs/busan, read at test
// time) is imported into a temp systems folder as `kiosk network import` does, and every one of its
// stations must have a Hangul name that cites where it comes from. The feed has English names only,
// so the file is the kiosk's only source of them; a station the feed adds or renumbers fails here.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importNetwork } from "../host/network/import.ts";
import { loadLanguageData } from "../runtime/framebook/local-names.ts";
import { LOCAL_NAMES_FILE, LocalNamesFileSchema, type OperatorLocalNames } from "../runtime/kiosk/extras.ts";
import { loadOperatorLocalNames } from "../runtime/kiosk/node/pack-extras.ts";
import { REPO_ROOT, SHARED_DATA_DIR, SHARED_DIR } from "../test/paths.ts";
import { DataPack } from "../tools/data/datapack.ts";
import { parseYamlText } from "../tools/data/parse.ts";
import type { SystemData } from "../tools/data/system.ts";

const FEED = path.join(SHARED_DIR, "gtfs", "busan");
const FRAMEBOOKS = path.join(REPO_ROOT, "framebooks");
const FILE = path.join(FRAMEBOOKS, "busan", LOCAL_NAMES_FILE);
/** A Korean station name: Hangul syllables, with the middle dot or space that join two names. */
const KOREAN_NAME = /^\p{Script=Hangul}+(?:[· ]\p{Script=Hangul}+)*$/u;

let dir: string;
let busan: SystemData;
let names: OperatorLocalNames;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "busan-local-names-"));
  const systemsDir = path.join(dir, "systems");
  importNetwork({ feed: FEED, id: "busan", systemsDir, pack: new DataPack(SHARED_DATA_DIR), faresFile: path.join(FRAMEBOOKS, "busan", "fares.json") });
  busan = new DataPack(SHARED_DATA_DIR, { systemsDir }).system("busan");
  // The kiosk's own loader: it rejects an id the imported system lacks and a citation of no reference.
  const loaded = loadOperatorLocalNames(FRAMEBOOKS, busan);
  if (!loaded) throw new Error(`${FILE} not found`);
  names = loaded;
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("framebooks/busan/local-names.yaml: the imported Busan Metro's Korean station names", () => {
  it("is Korean, and names every station of the imported system in Hangul, each a different name", () => {
    expect(names.language).toBe("ko");
    expect(busan.stations.length).toBeGreaterThan(0);
    const missing = busan.stations.filter((s) => (names.byStation.get(s.id) ?? []).length === 0).map((s) => `${s.id} ${s.name}`);
    expect(missing).toEqual([]);
    const notKorean = [...names.byStation].flatMap(([id, list]) => list.filter((n) => !KOREAN_NAME.test(n)).map((n) => `${id}: «${n}»`));
    expect(notKorean).toEqual([]);
    // Two stations under one shown name would be a copying slip (or a transfer station the import did not merge).
    const shown = busan.stations.map((s) => names.byStation.get(s.id)?.[0]);
    expect(shown.filter((n, i) => shown.indexOf(n) !== i)).toEqual([]);
  });

  it("cites, for every station, references that say where its name comes from; every reference is cited", () => {
    const file = parseYamlText(readFileSync(FILE, "utf8"), FILE, LocalNamesFileSchema).value;
    const references = file.references ?? {};
    const uncited = busan.stations.filter((s) => (file.name_sources?.[s.id] ?? []).length === 0).map((s) => `${s.id} ${s.name}`);
    expect(uncited).toEqual([]);
    const unknown = Object.entries(file.name_sources ?? {}).flatMap(([id, keys]) => keys.filter((k) => references[k] === undefined).map((k) => `${id}: ${k}`));
    expect(unknown).toEqual([]);
    const cited = new Set(Object.values(file.name_sources ?? {}).flat());
    expect(Object.keys(references).filter((k) => !cited.has(k))).toEqual([]);
    // A reference says where to look: an address, or the code index's file id where it names no repository.
    const nowhere = Object.entries(references).filter(([, text]) => !/https?:\/\/\S+|file id \d+/.test(text)).map(([k]) => k);
    expect(nowhere).toEqual([]);
    // The loader hands the references' text on with each station's names (for auditors).
    expect(busan.stations.every((s) => (names.nameSources.get(s.id) ?? []).length > 0)).toBe(true);
  });

  it("reaches the passenger-language layer, where the type-ahead looks names up", () => {
    const language = loadLanguageData(SHARED_DATA_DIR, busan, FRAMEBOOKS);
    const lost = busan.stations.filter((s) => !(language.localNames.get(s.id) ?? []).includes(names.byStation.get(s.id)?.[0] ?? "")).map((s) => s.id);
    expect(lost).toEqual([]);
  });
});
