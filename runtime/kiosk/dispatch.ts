// The main side of the passenger contract (KIOSK_METHODS): the shape the kiosk runtime implements
// (KioskApp), and the one validated call path that `kiosk serve` (HTTP) and the Electron IPC
// handlers share — parse the positional arguments with the method's tuple schema, then call.
import type { z } from "zod";
import {
  KIOSK_METHODS,
  type KioskArgs,
  type KioskMethod,
  type KioskPush,
  type KioskPushEvent,
  type KioskResult,
  type KioskSubscription,
} from "./bridge.ts";

/** What the adapters call: one function per passenger call, and one subscription per push. */
export type KioskBackend = { [M in KioskMethod]: (...args: KioskArgs<M>) => KioskResult<M> | Promise<KioskResult<M>> } & {
  [P in KioskPush as KioskSubscription<P>]: (listener: (event: KioskPushEvent<P>) => void) => () => void;
};

export type ParsedKioskArgs<M extends KioskMethod> = { ok: true; args: KioskArgs<M> } | { ok: false; error: z.ZodError };

/** Validate a call's positional arguments (exactly the method's tuple: nothing more, nothing less). */
export function parseKioskArgs<M extends KioskMethod>(method: M, args: unknown): ParsedKioskArgs<M> {
  const parsed = KIOSK_METHODS[method].args.safeParse(args);
  return parsed.success ? { ok: true, args: parsed.data as KioskArgs<M> } : { ok: false, error: parsed.error };
}

/**
 * Call `method` with already validated arguments. The caller's AbortSignal (a closed HTTP
 * connection) and its client (who asks: unpaid sessions count against it) follow the arguments;
 * calls that can take long (ask) honour the signal, and ask takes the client; the others ignore them.
 */
export async function invokeKiosk<M extends KioskMethod>(backend: KioskBackend, method: M, args: KioskArgs<M>, signal?: AbortSignal, client?: string): Promise<KioskResult<M>> {
  // The one generic call site: TypeScript cannot relate backend[M] to KioskArgs<M> for a generic M.
  const call = backend[method] as unknown as (...callArgs: unknown[]) => KioskResult<M> | Promise<KioskResult<M>>;
  return call.apply(backend, [...(args as unknown[]), signal, client]);
}
