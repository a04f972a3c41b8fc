// @vitest-environment happy-dom
// The technician screen's headset-speech card: the engines found, each screen language's voice, and
// a warning that names the languages that stay silent in headset mode.
import { cleanup, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { SpeechStatus } from "../../runtime/kiosk/bridge.ts";
import { renderWithProviders } from "../test/render.tsx";
import { SpeechStatusCard } from "./SpeechStatusCard.tsx";

afterEach(cleanup);

const voice = (engine: string, name: string) => ({ engine, voice: name, note: null });
const none = (note: string) => ({ engine: null, voice: null, note });

const LINUX: SpeechStatus = {
  engines: [
    { id: "espeak-ng", label: "eSpeak NG", output: "samples", voices: 130 },
    { id: "spd-say", label: "Speech Dispatcher (spd-say)", output: "loudspeaker", voices: 0 },
  ],
  voices: {
    en: voice("espeak-ng", "en-us"),
    es: voice("espeak-ng", "es-419"),
    ar: voice("espeak-ng", "ar"),
    "zh-Hans": none("eSpeak NG's voice cmn cannot read Chinese (simplified) text here (its dictionary for that script is not installed)"),
    "zh-Hant": voice("espeak-ng", "cmn-latn-pinyin"),
  },
};

describe("the headset speech card", () => {
  it("lists the engines and every language's voice, and warns about the silent one", () => {
    renderWithProviders(<SpeechStatusCard speech={LINUX} />);
    expect(screen.getByText(/Speech engines:/).textContent).toBe("Speech engines: eSpeak NG · Speech Dispatcher (spd-say) (loudspeaker only)");
    expect(screen.getByRole("status").textContent).toMatch(/passengers who choose 简体中文 hear nothing/);
    const rows = screen.getAllByRole("row").slice(1);
    expect(rows.map((r) => r.getAttribute("data-language"))).toEqual(["en", "zh-Hans", "zh-Hant", "ar", "es"]);
    expect(within(rows[0]!).getByText("espeak-ng · en-us")).toBeTruthy();
    expect(within(rows[1]!).getByText("No voice")).toBeTruthy();
    expect(within(rows[1]!).getByText(/cannot read Chinese \(simplified\) text here/)).toBeTruthy();
  });

  it("no engine that renders audio: a critical notice says what to install", () => {
    const silent: SpeechStatus = { engines: [{ id: "spd-say", label: "Speech Dispatcher (spd-say)", output: "loudspeaker", voices: 0 }], voices: Object.fromEntries((["en", "zh-Hans", "zh-Hant", "ar", "es"] as const).map((l) => [l, none("no speech engine that renders audio is installed")])) as SpeechStatus["voices"] };
    renderWithProviders(<SpeechStatusCard speech={silent} />);
    expect(screen.getByRole("alert").textContent).toMatch(/headset mode cannot read anything aloud.*espeak-ng/);
    expect(screen.getAllByText("No voice")).toHaveLength(5);
  });

  it("every language voiced: no warning; in Chinese the card speaks Chinese", () => {
    const full: SpeechStatus = { ...LINUX, voices: { ...LINUX.voices, "zh-Hans": voice("espeak-ng", "cmn-latn-pinyin") } };
    renderWithProviders(<SpeechStatusCard speech={full} />, { language: "zh-Hans" });
    expect(screen.queryByRole("status")).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(screen.getByText("耳机朗读")).toBeTruthy();
  });

  it("a kiosk that has not reported its engines says so", () => {
    renderWithProviders(<SpeechStatusCard speech={undefined} />);
    expect(screen.getByText("This kiosk has not reported its speech engines.")).toBeTruthy();
  });
});
