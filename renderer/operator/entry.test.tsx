// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { KioskApp } from "../app/KioskApp.tsx";
import { DEMO_MARTA } from "../bridge/demoSystems.ts";
import { createFakeBridge } from "../bridge/fakeBridge.ts";
import { createFakeOperatorBridge } from "../bridge/fakeOperator.ts";
import { en } from "../i18n/en.ts";

afterEach(() => {
  cleanup();
  history.replaceState(null, "", "/");
  vi.useRealTimers();
});

function withOperator() {
  return Object.assign(createFakeBridge({ systems: [DEMO_MARTA] }), { operator: createFakeOperatorBridge({ pin: "2468" }) });
}

describe("opening the operator tools from the attract screen", () => {
  it("#operator in the address opens them; closing returns to the attract screen and clears it", async () => {
    history.replaceState(null, "", "/#operator");
    render(<KioskApp bridge={withOperator()} />);
    expect(await screen.findByRole("heading", { name: en.operator.login.title })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: en.operator.close }));
    expect(await screen.findByRole("button", { name: en.attract.touchToStart })).toBeTruthy();
    expect(location.hash).toBe("");
  });

  it("closing the tools makes the attract screen check the kiosk status again", async () => {
    const bridge = withOperator();
    const status = vi.spyOn(bridge, "status");
    render(<KioskApp bridge={bridge} />);
    await screen.findByRole("button", { name: en.attract.touchToStart });
    const before = status.mock.calls.length;
    fireEvent.keyDown(document, { key: "o", ctrlKey: true, altKey: true });
    fireEvent.click(await screen.findByRole("button", { name: en.operator.close }));
    await screen.findByRole("button", { name: en.attract.touchToStart });
    expect(status.mock.calls.length).toBeGreaterThan(before);
  });

  it("a 3-second press on the top corner opens them; a short one does not", async () => {
    render(<KioskApp bridge={withOperator()} />);
    await screen.findByRole("button", { name: en.attract.touchToStart });
    vi.useFakeTimers();
    const corner = document.querySelector(".brand")!;
    fireEvent.pointerDown(corner);
    act(() => vi.advanceTimersByTime(1000));
    fireEvent.pointerUp(corner);
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.queryByRole("heading", { name: en.operator.login.title })).toBeNull();
    fireEvent.pointerDown(corner);
    act(() => vi.advanceTimersByTime(3000));
    expect(screen.getByRole("heading", { name: en.operator.login.title })).toBeTruthy();
  });

  it("Ctrl+Alt+O opens them; a kiosk without operator tools ignores every way in", async () => {
    render(<KioskApp bridge={withOperator()} />);
    await screen.findByRole("button", { name: en.attract.touchToStart });
    fireEvent.keyDown(document, { key: "o", ctrlKey: true, altKey: true });
    expect(await screen.findByRole("heading", { name: en.operator.login.title })).toBeTruthy();
    cleanup();
    history.replaceState(null, "", "/#operator");
    render(<KioskApp bridge={createFakeBridge({ systems: [DEMO_MARTA] })} />);
    expect(await screen.findByRole("button", { name: en.attract.touchToStart })).toBeTruthy();
    fireEvent.keyDown(document, { key: "o", ctrlKey: true, altKey: true });
    expect(screen.queryByRole("heading", { name: en.operator.login.title })).toBeNull();
  });

  it("is not offered in the middle of a passenger session", async () => {
    render(<KioskApp bridge={withOperator()} />);
    fireEvent.click(await screen.findByRole("button", { name: en.attract.touchToStart }));
    await screen.findByRole("heading", { level: 1, name: en.journey.title });
    fireEvent.keyDown(document, { key: "o", ctrlKey: true, altKey: true });
    expect(screen.queryByRole("heading", { name: en.operator.login.title })).toBeNull();
  });
});
