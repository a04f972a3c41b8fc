// The engine build choice (issue 15, item 5): measured by `npm run perf:engine-build`, recorded per
// machine in the cache, read by the shared runtime — which keeps the prebuilt binary unless the
// source build was chosen and is really there.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { engineBuildChoiceFile, loadEngineBuild, readEngineBuildChoice, sourceBuildPresent, writeEngineBuildChoice, type EngineBuildChoice } from "./engine-build.ts";

const dir = mkdtempSync(path.join(tmpdir(), "engine-build-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("engine build choice", () => {
  const choice: EngineBuildChoice = {
    choice: "source",
    measuredAt: "2026-12-01T00:00:00.000Z",
    model: "m.gguf",
    threads: 2,
    figures: { prebuilt: { prefillTokS: 20, decodeTokS: 7 }, source: { prefillTokS: 22, decodeTokS: 7.5 } },
  };

  it("is stored under XDG_CACHE_HOME/metro-kiosk and read back; a damaged file counts as no choice", () => {
    const file = engineBuildChoiceFile({ XDG_CACHE_HOME: dir });
    expect(file).toBe(path.join(dir, "metro-kiosk", "engine-build.json"));
    expect(readEngineBuildChoice(file)).toBeUndefined();
    writeEngineBuildChoice(choice, file);
    expect(readEngineBuildChoice(file)).toEqual(choice);
    writeFileSync(file, "{ not json");
    expect(readEngineBuildChoice(file)).toBeUndefined();
  });

  it("a chosen source build that is not there: a clear error, and the shared runtime keeps the prebuilt binary", async () => {
    if (await sourceBuildPresent()) return void console.log("a source build exists here: the fallback is not exercised");
    await expect(loadEngineBuild("source")).rejects.toThrow(/kiosk|engine:build|source build/);
    process.env.XDG_CACHE_HOME = dir;
    writeEngineBuildChoice(choice, engineBuildChoiceFile());
    const { sharedLlama } = await import("./llama.ts");
    const llama = await sharedLlama(false);
    expect(llama.gpu).toBe(false);
    expect(llama.buildType).toBe("prebuilt");
  });
});
