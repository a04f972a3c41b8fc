// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { DEMO_MARTA } from "../bridge/demoSystems.ts";
import { createFakeBridge } from "../bridge/fakeBridge.ts";
import { en } from "../i18n/en.ts";
import { createKioskI18n } from "../i18n/index.ts";
import { describeFocus, keypadCommand } from "../lib/keypad.ts";
import { createViewStore } from "../state/viewStore.ts";
import { fakeSpeaker } from "../test/render.tsx";
import { KioskApp } from "./KioskApp.tsx";

afterEach(() => {
  cleanup();
  document.documentElement.removeAttribute("dir");
});

const key = (k: string, target: Element = document.activeElement ?? document.body): void => {
  fireEvent.keyDown(target, { key: k });
};
const focused = (): string => (document.activeElement?.textContent ?? "").trim();

describe("keypad commands", () => {
  it("maps keypad keys, mirrored left/right on a right-to-left screen, and leaves typing alone", () => {
    const button = document.createElement("button");
    const input = document.createElement("input");
    const ev = (k: string, target: EventTarget) => ({ key: k, altKey: false, ctrlKey: false, metaKey: false, target });
    expect(keypadCommand(ev("ArrowDown", button), "ltr")).toBe("next");
    expect(keypadCommand(ev("ArrowRight", button), "ltr")).toBe("next");
    expect(keypadCommand(ev("ArrowRight", button), "rtl")).toBe("previous");
    expect(keypadCommand(ev("ArrowRight", input), "ltr")).toBeNull();
    expect(keypadCommand(ev("ArrowDown", input), "ltr")).toBe("next");
    expect(keypadCommand(ev("-", input), "ltr")).toBeNull();
    expect(keypadCommand(ev("-", button), "ltr")).toBe("volumeDown");
    expect(keypadCommand(ev("Backspace", input), "ltr")).toBeNull();
    expect(keypadCommand(ev("Escape", input), "ltr")).toBe("back");
    expect(keypadCommand(ev("F1", input), "ltr")).toBe("help");
    expect(keypadCommand(ev("F2", button), "ltr")).toBe("headset");
    expect(keypadCommand(ev("F3", button), "ltr")).toBe("moreTime");
    expect(keypadCommand(ev("a", button), "ltr")).toBeNull();
  });

  it("describes radios, switches, text fields and says why a button is unavailable", () => {
    const t = createKioskI18n("en").t;
    document.body.innerHTML = `
      <button id="r" role="radio" aria-checked="true">Breeze Card</button>
      <button id="s" role="switch" aria-checked="false">Step-free</button>
      <label for="q">Search stations</label><input id="q" value="air">
      <button id="b" aria-describedby="why">Find route and fare</button><p id="why">Choose where you start.</p>`;
    const el = (id: string) => document.getElementById(id)!;
    expect(describeFocus(el("r"), t)).toBe("Breeze Card, option, selected");
    expect(describeFocus(el("s"), t)).toBe("Step-free, switch, off");
    expect(describeFocus(el("q"), t)).toBe("Search stations, text field, air");
    expect(describeFocus(el("b"), t)).toBe("Find route and fare, button. Choose where you start.");
    document.body.innerHTML = "";
  });
});

describe("audio guide", () => {
  it("reads the idle warning when it opens, with the button that continues", async () => {
    const speaker = fakeSpeaker();
    const store = createViewStore();
    render(<KioskApp bridge={createFakeBridge({ systems: [DEMO_MARTA] })} store={store} speaker={speaker} timing={{ idleTimeoutMs: 50, idleWarningMs: 9_000 }} />);
    fireEvent.click(await screen.findByRole("button", { name: en.attract.touchToStart }));
    key("ArrowDown");
    await screen.findByRole("alertdialog", {}, { timeout: 3_000 });
    await waitFor(() => expect(speaker.log.at(-1)).toBe("speak:en:Are you still there? This screen will reset in 9 seconds. Continue, button"));
  });

  it("speaks each focus change once the keypad is used, and the keypad's help, volume, headset and more-time keys", async () => {
    const speaker = fakeSpeaker();
    const store = createViewStore();
    render(<KioskApp bridge={createFakeBridge({ systems: [DEMO_MARTA] })} store={store} speaker={speaker} />);
    const start = await screen.findByRole("button", { name: en.attract.touchToStart });
    // Touch alone says nothing.
    fireEvent.click(screen.getByRole("button", { name: en.common.largeText }));
    expect(speaker.log.filter((l) => l.startsWith("speak"))).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: en.common.largeText }));

    key("ArrowDown");
    expect(store.getState().audioGuide).toBe(true);
    expect(focused()).toBe("English");
    expect(speaker.log.at(-1)).toBe("speak:en:English, on");
    // Up from the first element wraps to the last: the screen's own button.
    key("ArrowUp");
    expect(document.activeElement).toBe(start);
    expect(speaker.log.at(-1)).toBe(`speak:en:${en.attract.touchToStart}, button`);

    key("F1");
    expect(speaker.log.at(-1)).toBe(`speak:en:${en.a11y.help} ${en.attract.title}.`);
    key("-");
    expect(store.getState().volume).toBe(0.8);
    expect(speaker.log.at(-1)).toBe("speak:en:Volume 80 percent");
    key("F2");
    expect(store.getState().headset).toBe(true);
    expect(speaker.log.at(-1)).toBe(`speak:en:${en.a11y.headsetOn}`);

    // A new screen is announced from its heading; Back (Escape) closes the station picker.
    fireEvent.click(start);
    expect(await screen.findByRole("heading", { level: 1, name: en.journey.title })).toBeTruthy();
    await act(async () => undefined);
    expect(speaker.log.some((l) => l.startsWith(`speak:en:${en.journey.title}.`))).toBe(true);
    // From the new screen's heading the keypad goes on into the screen, not back to the header.
    key("ArrowDown");
    expect(document.activeElement?.closest("main")).toBeTruthy();
    key("F3");
    expect(speaker.log.at(-1)).toBe("speak:en:You have more time: the screen now waits 5 minutes before asking if you are still there.");

    fireEvent.click(screen.getByRole("button", { name: /^From ?:/ }));
    expect(document.activeElement?.getAttribute("type")).toBe("search");
    key("Escape");
    expect(store.getState().panel).toBe("none");

    // Start over ends the session: volume, headset and the guide are reset for the next passenger.
    fireEvent.click(screen.getByRole("button", { name: en.common.startOver }));
    await screen.findByRole("button", { name: en.attract.touchToStart });
    expect(store.getState()).toMatchObject({ volume: 1, headset: false, audioGuide: false });
  });
});
