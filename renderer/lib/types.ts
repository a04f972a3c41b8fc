// Shorthands for contract types the screen uses (all inferred from the runtime's zod schemas).
import type { AskResult, SystemView } from "../../runtime/kiosk/bridge.ts";

export type AssistantState = AskResult["state"];
export type Route = NonNullable<AssistantState["route"]>;
export type RouteStop = Route["stops"][number];
export type FareQuote = NonNullable<AssistantState["fare_quote"]>;
export type PassengerSummary = Required<NonNullable<FareQuote["passenger_summary"]>>;
export type AdvisoryBanner = NonNullable<AssistantState["advisory_banners"]>[number];
export type BannerSeverity = AdvisoryBanner["severity"];
export type StationView = SystemView["stations"][number];
export type LineView = SystemView["lines"][number];
export type SystemId = SystemView["id"];
