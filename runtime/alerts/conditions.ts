// The live conditions of a passenger session with the alert store's disruptions added: what a host
// (`kiosk serve` today, the kiosk host later) passes as its `conditions` callback, so an alert an
// operator adds reaches the next session at once and stops reaching them when it ends or expires.
import type { Disruption, SystemId } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { activeDisruptions } from "./active.ts";
import { localIso } from "./model.ts";
import { AlertStore } from "./store.ts";

export interface ConditionsWithAlertsOptions {
  store: Pick<AlertStore, "current">;
  system: (id: SystemId) => SystemData;
  /** Conditions from elsewhere (a --conditions file, a replayed case): their disruptions come first. */
  base?: (system: SystemId) => { disruptions: readonly Disruption[]; now?: Date } | undefined;
  clock: () => Date;
  /** Where a store that cannot be read is reported (the session then runs without its alerts). */
  log?: (message: string) => void;
}

/** `language`: the passenger's (the alert's text in it, else the system's language, else English). */
export function conditionsWithAlerts(options: ConditionsWithAlertsOptions): (system: SystemId, language?: string) => { disruptions: Disruption[]; now: Date } {
  return (system, language) => {
    const base = options.base?.(system);
    const now = base?.now ?? options.clock();
    let alerts: Disruption[] = [];
    try {
      alerts = activeDisruptions(options.store.current(system), { system, now: localIso(now), primaryLanguage: options.system(system).framebook.primary_language, ...(language ? { language } : {}) });
    } catch (err) {
      options.log?.(`service alerts unavailable for ${system}: ${(err as Error).message}`);
    }
    const known = new Set((base?.disruptions ?? []).map((d) => d.id).filter(Boolean));
    return { now, disruptions: [...(base?.disruptions ?? []), ...alerts.filter((d) => !known.has(d.id))] };
  };
}

/**
 * For a host: open the alert store at `file` and give the conditions callback over it. A store that
 * cannot be opened is logged and the kiosk runs without alerts (as it did before they existed).
 */
export function openAlertConditions(file: string, options: Omit<ConditionsWithAlertsOptions, "store">): { store: AlertStore; conditions: ReturnType<typeof conditionsWithAlerts>; close: () => void } | null {
  let store: AlertStore;
  try {
    store = AlertStore.open(file);
  } catch (err) {
    options.log?.(`${(err as Error).message} — service alerts are unavailable until this is fixed`);
    return null;
  }
  return { store, conditions: conditionsWithAlerts({ ...options, store }), close: () => store.close() };
}
