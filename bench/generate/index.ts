// Case generation for any system: `generateCases` (what `kiosk bench generate` writes) and the
// independent route finder and fare computation its ground truth comes from.
export { caseIdPrefix, generateCases, reportLines, type CategoryReport, type GenerateOptions, type GenerateResult } from "./generate.ts";
export { Network, TIE_MIN, DEFAULT_TRANSFER_MIN, type GtRoute, type Restrictions, type RouteAnswer } from "./network.ts";
export { quoteFare, type FareAnswer, type GtFare, type Riders } from "./fares.ts";
