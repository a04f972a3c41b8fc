// The data pack's disruption vocabulary: the disruption types its events and cases use, the advisory
// categories its framebooks map to a severity (advisory_severity_mapping), and the three severities.
// A test checks that every type in the pack is listed here, so a newer pack cannot drift silently.
import { z } from "zod";

/** Disruptions scoped to stations (they need `stations`). */
export const STATION_TYPES = ["station_closure", "station_entry_restriction", "elevator_outage"] as const;

/** Disruptions of lines or sections of a line (they take `lines` and an optional `segment`). */
export const LINE_TYPES = [
  "line_suspension",
  "planned_maintenance",
  "weather_slow_zone",
  // The framebooks' advisory categories (advisory_severity_mapping keys).
  "service_suspended",
  "major_delay",
  "minor_delay",
  "planned_works",
] as const;

/** Area-wide advisories (weather, crowds): lines and stations are optional. */
export const AREA_TYPES = [
  "crowd_advisory",
  "earthquake_warning",
  "hurricane_warning",
  "typhoon_warning",
  "sandstorm_warning",
  "polar_vortex",
  "smog_warning",
  "air_quality_warning",
] as const;

export const DISRUPTION_TYPES = [...STATION_TYPES, ...LINE_TYPES, ...AREA_TYPES] as const;
export const DisruptionTypeSchema = z.enum(DISRUPTION_TYPES);
export type DisruptionType = z.infer<typeof DisruptionTypeSchema>;

export const DISRUPTION_SEVERITIES = ["critical", "warning", "info"] as const;
export const DisruptionSeveritySchema = z.enum(DISRUPTION_SEVERITIES);
export type DisruptionSeverity = z.infer<typeof DisruptionSeveritySchema>;

export function isStationType(type: DisruptionType): boolean {
  return (STATION_TYPES as readonly string[]).includes(type);
}

export function isLineType(type: DisruptionType): boolean {
  return (LINE_TYPES as readonly string[]).includes(type);
}

/** A default severity for a type: the framebook's mapping when it has the type, else by kind. */
export function defaultSeverity(type: DisruptionType, mapping: Readonly<Record<string, string>> | undefined): DisruptionSeverity {
  const mapped = mapping?.[type];
  const parsed = DisruptionSeveritySchema.safeParse(mapped);
  if (parsed.success) return parsed.data;
  if (type === "station_closure" || type === "line_suspension" || type === "service_suspended") return "critical";
  if (type === "minor_delay" || type === "planned_works" || type === "crowd_advisory") return "info";
  return "warning";
}
