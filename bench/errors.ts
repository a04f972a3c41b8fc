// Errors the bench raises for a user's mistake (bad selection, unknown run, unavailable policy):
// the command line prints their message without a stack trace.
export class BenchError extends Error {
  override name = "BenchError";
}
