// Run the `kiosk` program in-process on the shared data pack and capture what it prints.
import { vi } from "vitest";
import { buildProgram, registerCommands } from "../cli/main.ts";
import { SHARED_DATA_DIR } from "./paths.ts";

export interface KioskRun {
  stdout: string;
  stderr: string;
  exitCode: number | undefined;
  /** What the command threw (a UsageError, say), if it did. */
  error?: Error;
}

export async function runKiosk(...argv: string[]): Promise<KioskRun> {
  const program = buildProgram();
  // As `kiosk` itself does: only the named command's module is registered.
  await registerCommands(program, ["node", "kiosk", "--data", SHARED_DATA_DIR, ...argv]);
  let stdout = "";
  let stderr = "";
  process.exitCode = undefined;
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  let error: Error | undefined;
  try {
    await program.parseAsync(["--data", SHARED_DATA_DIR, ...argv], { from: "user" });
  } catch (err) {
    error = err as Error;
  } finally {
    vi.restoreAllMocks();
  }
  const exitCode = process.exitCode === undefined ? undefined : Number(process.exitCode);
  process.exitCode = undefined;
  return { stdout, stderr, exitCode, ...(error ? { error } : {}) };
}

/**
 * Run `kiosk --systems-dir DIR …` in-process, with imported systems: what it printed, or what it
 * threw (rethrown, for `rejects`).
 */
export async function runKioskWithSystems(systemsDir: string, ...argv: string[]): Promise<{ stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  try {
    const program = buildProgram();
    await registerCommands(program, ["node", "kiosk", ...argv]);
    await program.parseAsync(["--data", SHARED_DATA_DIR, "--systems-dir", systemsDir, ...argv], { from: "user" });
    return { stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
