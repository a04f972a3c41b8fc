// Fare engine: flat, flat_with_exceptions and distance models with the reference's rounding.
export {
  calculateFare,
  FareError,
  type FareBreakdown,
  type FareLine,
  type FareRoute,
  type PassengerCounts,
} from "./fares.ts";
