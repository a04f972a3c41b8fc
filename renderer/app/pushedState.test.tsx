// @vitest-environment happy-dom
// The kiosk's state reaches the screen as it is pushed, without a tap and without the status poll:
// a bench run starting takes the attract screen and a journey in progress out of service, its end
// brings the start button back, and a new framebook version reloads the system's view.
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEMO_MARTA } from "../bridge/demoSystems.ts";
import { createFakeBridge } from "../bridge/fakeBridge.ts";
import { en } from "../i18n/en.ts";
import { KioskApp } from "./KioskApp.tsx";

afterEach(() => cleanup());

describe("pushed kiosk state", () => {
  it("a technician bench run takes the attract screen out of service at once, and its end brings it back", async () => {
    const bridge = createFakeBridge({ systems: [DEMO_MARTA] });
    const status = vi.spyOn(bridge, "status");
    render(<KioskApp bridge={bridge} />);
    await screen.findByRole("button", { name: en.attract.touchToStart });
    const polls = status.mock.calls.length;
    act(() => bridge.setStatus({ benchRunning: true, message: "A technician test is running. Please wait." }));
    expect(await screen.findByText(en.attract.outOfService)).toBeTruthy();
    expect(screen.queryByRole("button", { name: en.attract.touchToStart })).toBeNull();
    act(() => bridge.setStatus({ benchRunning: false, message: null }));
    expect(await screen.findByRole("button", { name: en.attract.touchToStart })).toBeTruthy();
    expect(status.mock.calls.length).toBe(polls);
  });

  it("a bench run starting during a journey shows the notice there, and no request is sent", async () => {
    const bridge = createFakeBridge({ systems: [DEMO_MARTA] });
    render(<KioskApp bridge={bridge} />);
    fireEvent.click(await screen.findByRole("button", { name: en.attract.touchToStart }));
    await screen.findByRole("heading", { level: 1, name: en.journey.title });
    act(() => bridge.setStatus({ benchRunning: true }));
    expect((await screen.findByRole("alert")).textContent).toContain(en.attract.outOfService);
    expect(screen.getByRole("heading", { level: 1, name: en.journey.title })).toBeTruthy();
    expect(bridge.calls.ask).toHaveLength(0);
  });

  it("a framebook applied by the operator reloads the system's view on the attract screen", async () => {
    const bridge = createFakeBridge({ systems: [DEMO_MARTA], status: { framebookVersions: { marta: DEMO_MARTA.framebookVersion } } });
    render(<KioskApp bridge={bridge} />);
    await screen.findByRole("button", { name: en.attract.touchToStart });
    await waitFor(() => expect(bridge.calls.systemView).toEqual(["marta"]));
    act(() => bridge.setStatus({ framebookVersions: { marta: "operator-2" } }));
    await waitFor(() => expect(bridge.calls.systemView).toEqual(["marta", "marta"]));
  });
});
