// @vitest-environment happy-dom
// The rider buttons say who each rider type is and what it pays, from the fare table: a parent sees
// at the button that a child pays the adult fare from 5 on (MARTA) or from 120 cm (Beijing).
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { SystemView } from "../../runtime/kiosk/bridge.ts";
import { DEMO_MARTA } from "../bridge/demoSystems.ts";
import { renderWithProviders } from "../test/render.tsx";
import { PassengerCounter } from "./PassengerCounter.tsx";

afterEach(cleanup);

const withRules = (rules: SystemView["riderRules"]): SystemView => ({ ...DEMO_MARTA, riderTypes: ["adults", "children", "seniors"], riderRules: rules });

describe("the passenger counter", () => {
  it("names each rider type's age band and who rides free, in the screen's language", () => {
    const marta = withRules({ children: { qualifier: "under 5", free: true, maxPerAdult: 2 }, seniors: { qualifier: null, free: false, maxPerAdult: null } });
    renderWithProviders(<PassengerCounter system={marta} />);
    expect(screen.getByRole("group", { name: "Children (under 5, free · older children pay the adult fare)" })).toBeTruthy();
    expect(screen.getByRole("group", { name: "Adults" })).toBeTruthy();
    cleanup();
    renderWithProviders(<PassengerCounter system={withRules({ children: { qualifier: "under 120cm", free: true, maxPerAdult: 2 } })} />, { language: "es" });
    expect(screen.getByText("de menos de 120 cm, gratis · los niños mayores pagan la tarifa de adulto")).toBeTruthy();
  });

  it("marks the counter as set by the passenger once it is tapped", () => {
    const { store } = renderWithProviders(<PassengerCounter system={withRules({})} />);
    expect(store.getState().journey.passengersSet).toBe(false);
    fireEvent.click(screen.getByRole("button", { name: "Add one: Children" }));
    expect(store.getState().journey).toMatchObject({ passengersSet: true, passengers: { children: 1 } });
  });
});
