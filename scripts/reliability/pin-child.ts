// One PIN guess in a process of its own, for the restart harness (restart.ts starts it, and
// SIGKILLs it at random moments — also in the middle of the check). Prints one line:
//   RESULT <json PinCheck> <checked: 0|1>   (checked: the guess was counted, so its answer is a real check)
//
//   node --import tsx scripts/reliability/pin-child.ts <pin hash> <pin> <lockout state file | -> <free attempts>
import { existsSync, readFileSync, writeSync } from "node:fs";
import { LOCAL_PIN_SOURCE, PinGate } from "../../runtime/operator/pin.ts";

const [hash, pin, stateFile, free] = process.argv.slice(2);
if (!hash || !pin || !stateFile || !free) {
  console.error("usage: pin-child.ts <hash> <pin> <state file|-> <free attempts>");
  process.exit(2);
}
const file = stateFile === "-" ? undefined : stateFile;
const failures = (): number => (file && existsSync(file) ? ((JSON.parse(readFileSync(file, "utf8")) as { sources?: Record<string, { failures: number }> }).sources?.[LOCAL_PIN_SOURCE]?.failures ?? 0) : -1);
const gate = new PinGate({ hash, freeAttempts: Number(free), lockoutMs: 3_600_000, maxLockoutMs: 3_600_000, ...(file ? { stateFile: file } : {}) });
writeSync(1, "READY\n");
const before = failures();
const result = await gate.check(pin);
// Without a state file every answer comes from a real check unless it says "locked" with nothing counted.
const checked = result.ok || (file ? failures() > before : result.reason === "wrong_pin" || result.retryAfterMs === 3_600_000);
writeSync(1, `RESULT ${JSON.stringify(result)} ${checked ? 1 : 0}\n`);
