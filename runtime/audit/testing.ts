// Test and demo helper: answer a passenger session through the live-session path and keep it as
// the answer pipeline will (auditTurn per turn, the interlock's verdict), without a kiosk host.
import type { DataPack } from "../../tools/data/datapack.ts";
import type { Disruption, KioskEvent, SystemId } from "../../tools/data/schemas.ts";
import type { SystemData } from "../../tools/data/system.ts";
import { localIso } from "../alerts/model.ts";
import { framebookPolicyChange } from "../framebook/validate.ts";
import { checkInterlock } from "../kiosk/interlock.ts";
import { KioskService } from "../kiosk/service.ts";
import { framebookVersion } from "../kiosk/view.ts";
import { rulePolicy } from "../policies/rule/index.ts";
import type { Policy } from "../session/policy.ts";
import { auditTurn, SessionAuditSchema, type AuditPurchase, type SessionAudit } from "./model.ts";
import { AnswerPipeline } from "../answer/pipeline.ts";

export interface RecordSessionOptions {
  sessionId: string;
  system: SystemId;
  turns: KioskEvent[][];
  now: Date;
  disruptions?: Disruption[];
  language?: string;
  systemData?: SystemData;
  policy?: Policy;
  purchases?: AuditPurchase[];
}

export async function recordSession(pack: DataPack, o: RecordSessionOptions): Promise<SessionAudit> {
  const data = o.systemData ?? pack.system(o.system);
  const disruptions = o.disruptions ?? [];
  const policy = o.policy ?? rulePolicy;
  const service = new KioskService({ pack, pipeline: new AnswerPipeline({ rule: policy, profile: pack.promptProfile() }), systemData: () => data, conditions: () => ({ now: o.now, disruptions }), clock: () => o.now });
  const turns = [];
  let result = await service.start({ system: o.system, events: o.turns[0]!, sessionId: o.sessionId });
  for (let i = 0; ; i++) {
    const record = result.record;
    const verdict = checkInterlock({ system: data, state: record.kiosk.state, turns: o.turns.slice(0, i + 1), disruptions, toolCalls: record.tool_calls_made, policyText: framebookPolicyChange(data.framebook)?.text ?? null, now: { iso: localIso(o.now) } });
    const at = new Date(o.now.getTime() + i * 30_000);
    turns.push(auditTurn({ at, events: o.turns[i]!, now: localIso(o.now), disruptions, framebookVersion: framebookVersion(data), record, verdict, assistantUnavailable: result.assistantUnavailable, elapsedMs: 12 }));
    if (i + 1 >= o.turns.length) break;
    result = await service.continue(o.sessionId, o.turns[i + 1]!);
  }
  service.end(o.sessionId);
  return SessionAuditSchema.parse({ sessionId: o.sessionId, system: o.system, language: o.language ?? "en", startedAt: turns[0]!.at, turns, purchases: o.purchases ?? [] });
}

export const trip = (origin: string, destination: string, passengers: Record<string, number> = { adults: 1 }): KioskEvent[] => [
  { type: "station_selected", field: "origin", value: origin, station_id: origin },
  { type: "station_selected", field: "destination", value: destination, station_id: destination },
  { type: "passenger_count_changed", ...passengers },
];
