export { BridgeProvider, useBridge } from "./BridgeProvider.tsx";
export { createBrowserBridge, progressSocketUrl, type BrowserBridgeOptions, type WebSocketLike } from "./browserBridge.ts";
export { BRIDGE_FAILURE_KINDS, BridgeError, toBridgeFailure, type BridgeFailure, type BridgeFailureKind } from "./errors.ts";
export { createFakeBridge, type FakeBridge, type FakeBridgeOptions } from "./fakeBridge.ts";
export { DEMO_SYSTEMS } from "./demoSystems.ts";
export { chooseBridge, createBridge, type BridgeChoice, type BridgeEnvironment } from "./selectBridge.ts";
export { isKioskBridge, validatingBridge } from "./validatingBridge.ts";
