// Benchmark statistics: the reference's aggregates, termination counts and bootstrap intervals.
export * from "./aggregate.ts";
export * from "./bootstrap.ts";
export * from "./terminations.ts";
