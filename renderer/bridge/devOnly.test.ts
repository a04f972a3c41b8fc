// The demo fakes (passenger + operator, demo PIN) exist only in development builds: a production
// build of the renderer (Vite's build API, as `npm run build:renderer` does) contains none of their
// code, and `?bridge=fake` there falls back to the kiosk server's API; the dev build and the unit
// tests still get the fake bridge.
import { build, type Rolldown } from "vite";
import { describe, expect, it } from "vitest";
import demoPolicySource from "./demoPolicy.ts?raw";
import demoSystemsSource from "./demoSystems.ts?raw";
import devBridgeSource from "./devBridge.ts?raw";
import fakeBridgeSource from "./fakeBridge.ts?raw";
import fakeOperatorSource from "./fakeOperator.ts?raw";
import { DEMO_PIN } from "./devBridge.ts";
import { chooseBridge, createBridge } from "./selectBridge.ts";

/** Text only the fakes carry (each checked to be in its source, so the list cannot go stale). */
const FAKE_MARKERS: ReadonlyArray<{ source: string; text: string }> = [
  { source: fakeBridgeSource, text: "The payment terminal declined the card" },
  { source: fakeOperatorSource, text: "Demo Metropolitan Transit" },
  { source: fakeOperatorSource, text: "invalid YAML: tabs are not allowed for indentation" },
  { source: demoSystemsSource, text: "Demo data for development only" },
  { source: demoPolicySource, text: "A member of staff at the ticket office can help you." },
];

/** Build the renderer in `mode` in memory (no files written): every emitted chunk, source map and asset as text. */
async function buildBundle(mode: "production" | "development"): Promise<string> {
  // Vite decides DEV/PROD from NODE_ENV, which Vitest sets to "test".
  const saved = process.env.NODE_ENV;
  process.env.NODE_ENV = mode;
  let result: Awaited<ReturnType<typeof build>>;
  try {
    result = await build({ configFile: `${import.meta.dirname}/../vite.config.ts`, mode, logLevel: "silent", build: { write: false, emptyOutDir: false } });
  } finally {
    process.env.NODE_ENV = saved;
  }
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const texts = outputs.flatMap((out) =>
    out.output.map((item) => (item.type === "chunk" ? `${item.code}\n${item.map?.toString() ?? ""}` : typeof item.source === "string" ? item.source : new TextDecoder().decode(item.source))),
  );
  expect(outputs.some((out) => out.output.some((item) => item.type === "chunk"))).toBe(true);
  return texts.join("\n");
}

/** The demo PIN as a string literal (zod's date pattern has the digits too, as `[2468]`, `[02468]`). */
function demoPinUses(bundle: string): number {
  return [...bundle.matchAll(new RegExp(`["'\`]${DEMO_PIN}(?=\\\\?["'\`])`, "g"))].length;
}

describe("demo fakes only in development builds", () => {
  it("names text that really is in the fakes' sources", () => {
    for (const { source, text } of FAKE_MARKERS) expect(source.includes(text), text).toBe(true);
    expect(devBridgeSource).toContain(`"${DEMO_PIN}"`);
  });

  it("leaves the fakes and the demo PIN out of the production bundle", async () => {
    const bundle = await buildBundle("production");
    // includes() + toBe: a failure names the text without printing the whole bundle.
    for (const { text } of FAKE_MARKERS) expect(bundle.includes(text), text).toBe(false);
    expect(demoPinUses(bundle)).toBe(0);
    // The production entry still selects bridges (the browser bridge is in).
    expect(bundle.includes("the fake bridge exists only in development builds")).toBe(true);
  });

  it("keeps them in a development build", async () => {
    const bundle = await buildBundle("development");
    for (const { text } of FAKE_MARKERS) expect(bundle.includes(text), text).toBe(true);
    expect(demoPinUses(bundle)).toBeGreaterThan(0);
  });

  it("falls back to the kiosk server's API for ?bridge=fake in production", () => {
    expect(chooseBridge({ preload: undefined, search: "?bridge=fake", baseUrl: "http://h:1/index.html", dev: false })).toEqual({ kind: "browser", baseUrl: "http://h:1/", ignored: "fake" });
    expect(chooseBridge({ preload: undefined, search: "?bridge=fake&server=http://s:2", baseUrl: "http://h:1/", dev: false })).toEqual({ kind: "browser", baseUrl: "http://s:2", ignored: "fake" });
    expect(chooseBridge({ preload: undefined, search: "?bridge=fake", baseUrl: "http://localhost:5173/", dev: true })).toEqual({ kind: "fake" });
  });

  it("gives the dev screen (and these tests) the fake bridge with the demo operator PIN", async () => {
    expect(import.meta.env.DEV).toBe(true);
    const { choice, bridge } = await createBridge({ preload: undefined, search: "", baseUrl: "http://localhost:5173/", dev: true });
    expect(choice).toEqual({ kind: "fake" });
    const systems = await bridge.listSystems();
    expect(systems.length).toBeGreaterThan(0);
    expect((await bridge.systemView(systems[0]?.id ?? "marta")).attribution).toContain("Demo data for development only");
    const login = await bridge.operator?.login({ operator: "Dev", pin: DEMO_PIN });
    expect(login).toMatchObject({ ok: true, operator: "Dev" });
  });
});
