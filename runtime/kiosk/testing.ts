// Test helpers for the kiosk app (imported by tests only): the shared data pack, fake policies
// (one that crashes like a dead model process, one that tampers with the rule policy's answer)
// and a KioskApp wired to an in-memory ledger and the simulated payment terminal.
import { DataPack } from "../../tools/data/datapack.ts";
import type { Case } from "../../tools/data/schemas.ts";
import { SHARED_DATA_DIR } from "../../test/paths.ts";
import { rulePolicy } from "../policies/rule/index.ts";
import type { Policy, PolicyStep } from "../session/policy.ts";
import { KioskApp, type KioskAppOptions } from "./app.ts";
import type { AskRequest } from "./bridge.ts";
import { Ledger } from "./node/ledger.ts";
import { SimulatedPaymentTerminal } from "./payment.ts";
import { packExtras } from "./node/pack-extras.ts";

let sharedPack: DataPack | undefined;
export function testPack(): DataPack {
  return (sharedPack ??= new DataPack(SHARED_DATA_DIR));
}

export function caseById(id: string): Case {
  const kase = testPack().caseById(id);
  if (!kase) throw new Error(`no case ${id} in the data pack`);
  return kase;
}

/** The first request of a benchmark case, as the screen would send it. */
export function askFromCase(id: string): AskRequest {
  const kase = caseById(id);
  return { system: kase.system, events: kase.multi_turn_events?.[0] ?? kase.events };
}

/** A primary "model" whose process has died: every run throws. */
export function crashingPolicy(message = "model process exited (code 134)"): Policy & { starts: number } {
  const policy = {
    id: "fake-model",
    starts: 0,
    start() {
      policy.starts++;
      return {
        next(): Promise<PolicyStep> {
          return Promise.reject(new Error(message));
        },
      };
    },
  };
  return policy;
}

/**
 * The rule policy with its submitted terminal state rewritten by `tamper` — a stand-in for a
 * model that hallucinates a fare or a route.
 */
export function tamperingPolicy(tamper: (state: Record<string, unknown>) => Record<string, unknown>, inner: Policy = rulePolicy): Policy {
  return {
    id: `tampered-${inner.id}`,
    async start(setup) {
      const run = await inner.start(setup);
      return {
        async next(input) {
          const step = await run.next(input);
          if (step.type !== "tool_calls") return step;
          return {
            ...step,
            calls: step.calls.map((call) => {
              if (call.name !== "submit_assistant_state") return call;
              const args = typeof call.arguments === "string" ? (JSON.parse(call.arguments) as Record<string, unknown>) : call.arguments;
              return { ...call, arguments: JSON.stringify(tamper(structuredClone(args))) };
            }),
          };
        },
        ...(run.dispose ? { dispose: () => run.dispose?.() } : {}),
      };
    },
  };
}

export interface TestApp {
  app: KioskApp;
  ledger: Ledger;
  payment: SimulatedPaymentTerminal;
  logs: string[];
}

/** A fixed service-hours time (Monday 2026-03-09 14:00 local), so answers never depend on the hour tests run at. */
export const TEST_NOW = new Date(2026, 2, 9, 14, 0, 0);

/** MARTA Airport → Five Points, one adult ($2.50), with typed text: the hybrid router sends it to the model. */
export const TYPED_TRIP: AskRequest = {
  system: "marta",
  events: [
    { type: "station_selected", field: "origin", value: "Airport", station_id: "MARTA-AP" },
    { type: "station_selected", field: "destination", value: "Five Points", station_id: "MARTA-FP" },
    { type: "passenger_count_changed", adults: 1 },
    { type: "freetext_input", text: "Is there anything I should know?" },
  ],
};

export function testApp(options: Partial<KioskAppOptions> & { ledgerFile?: string } = {}): TestApp {
  const ledger = Ledger.open(options.ledgerFile ?? ":memory:");
  const payment = options.payment instanceof SimulatedPaymentTerminal ? options.payment : new SimulatedPaymentTerminal();
  const logs: string[] = [];
  let n = 0;
  const app = new KioskApp({
    pack: testPack(),
    // The extras of the pack the app runs (an imported system's come from its own folder).
    extras: packExtras(options.pack ?? testPack()),
    ledger,
    payment,
    log: (m) => logs.push(m),
    newSessionId: () => `s-${++n}`,
    clock: () => new Date(TEST_NOW),
    ...options,
  });
  return { app, ledger, payment, logs };
}

/** The rule policy, each session starting `ms` later (a run slow enough to watch, stop and resume). */
export function pacedRulePolicy(ms: number): Policy {
  return {
    id: "rule",
    async start(setup) {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return rulePolicy.start(setup);
    },
  };
}
