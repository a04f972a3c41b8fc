// The development screen's bridge: the fake passenger bridge with the fake operator tools behind the
// demo PIN (no real kiosk PIN exists in dev). Only selectBridge's `import.meta.env.DEV` branch imports
// this module, so production bundles contain neither the fakes nor the demo PIN
// (renderer/bridge/devOnly.test.ts builds both modes and checks).
import type { KioskBridge } from "../../runtime/kiosk/bridge.ts";
import { createFakeBridge } from "./fakeBridge.ts";
import { createFakeOperatorBridge } from "./fakeOperator.ts";

/** The fake operator tools' PIN on the dev server. */
export const DEMO_PIN = "2468";

export function createDevBridge(): KioskBridge {
  return Object.assign(createFakeBridge({ stepDelayMs: 450 }), { operator: createFakeOperatorBridge({ pin: DEMO_PIN, stepDelayMs: 300 }) });
}
