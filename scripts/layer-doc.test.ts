// docs/CONVENTIONS.md's layer diagram and table are what ESLint enforces (probed through the
// project's own eslint.config.js), and the enforced layers are the ones the guide names.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { CONVENTIONS, currentSection, diagramEdges, FOLDERS, probeLayers, renderLayerSection, withSection, type Folder, type LayerFacts } from "./layer-doc.ts";

let facts: LayerFacts;
beforeAll(async () => {
  facts = await probeLayers();
});

describe("the layer section of docs/CONVENTIONS.md", () => {
  it("matches what eslint.config.js enforces (rerun `npx tsx scripts/layer-doc.ts --write` after changing the rules)", () => {
    const doc = readFileSync(CONVENTIONS, "utf8");
    const section = currentSection(doc);
    expect(section, "the layers:begin/end markers are missing").not.toBeNull();
    expect(section).toBe(renderLayerSection(facts));
  });

  it("notices a doc that disagrees with the rules", () => {
    const doc = readFileSync(CONVENTIONS, "utf8");
    const wrong: LayerFacts = { ...facts, mayImport: { ...facts.mayImport, electron: [...facts.mayImport.electron, "bench"] } };
    expect(currentSection(withSection(doc, renderLayerSection(wrong)))).not.toBe(renderLayerSection(facts));
  });

  it("shows the layers the guide names: tools ← runtime ← models ← bench ← host ← electron, cli ← scripts", () => {
    const chain: Folder[] = ["tools", "runtime", "models", "bench", "host"];
    chain.forEach((layer, i) => expect(facts.mayImport[layer], layer).toEqual(chain.slice(0, i)));
    expect(facts.mayImport.cli).toEqual(chain);
    expect(facts.mayImport.electron).toEqual(["tools", "runtime", "models", "host"]);
    expect(facts.mayImport.scripts).toEqual(FOLDERS.filter((f) => f !== "renderer" && f !== "scripts"));
    for (const folder of FOLDERS) {
      expect(facts.mayImport[folder], `${folder} imports renderer/`).not.toContain("renderer");
      expect(facts.mayImport[folder], `${folder} imports scripts/`).not.toContain("scripts");
    }
    expect(facts.mayImport.renderer).toEqual([]);
    expect(facts.rendererBridgeOnly).toBe(true);
    expect(facts.nodeBuiltins).not.toContain("renderer");
    expect(facts.nativeModel).toEqual(["models"]);
    expect(facts.kioskDomainPure).toBe(true);
    expect(facts.kioskAdaptersMayUseNode).toBe(true);
    expect(facts.testsMayImportScripts).not.toContain("renderer");
    expect(diagramEdges(facts.mayImport)).toEqual([
      ["runtime", "tools"],
      ["models", "runtime"],
      ["bench", "models"],
      ["host", "bench"],
      ["electron", "host"],
      ["cli", "host"],
      ["scripts", "electron"],
      ["scripts", "cli"],
    ]);
  });

  it("draws an arrow only where no other arrow already reaches", () => {
    const none = Object.fromEntries(FOLDERS.map((f) => [f, [] as Folder[]])) as unknown as Record<Folder, Folder[]>;
    expect(diagramEdges({ ...none, runtime: ["tools"], models: ["tools", "runtime"], bench: ["tools"] })).toEqual([
      ["runtime", "tools"],
      ["models", "runtime"],
      ["bench", "tools"],
    ]);
  });
});
