// Line badges: the line's colour *and* its name (colour is never the only cue).
import type { SystemView } from "../../runtime/kiosk/bridge.ts";
import { lineColor, lineTextColor } from "../lib/lineColors.ts";
import { lineName } from "../lib/names.ts";
import { useView } from "../state/ViewStoreProvider.tsx";

export function LineChip({ system, lineId }: { system: SystemView; lineId: string }) {
  const language = useView((s) => s.language);
  const line = system.lines.find((l) => l.id === lineId);
  const color = lineColor(line?.color);
  return (
    // --line-color: the high-contrast theme draws the chip black on white text, the colour as a border.
    <bdi className="line-chip" style={{ backgroundColor: color, color: lineTextColor(color), ["--line-color" as string]: color }}>
      {lineName(system, lineId, language)}
    </bdi>
  );
}

export function LineChips({ system, lineIds }: { system: SystemView; lineIds: readonly string[] }) {
  if (lineIds.length === 0) return null;
  return (
    <span className="line-chips">
      {lineIds.map((id, i) => (
        <span key={id}>
          {i > 0 ? " " : ""}
          <LineChip system={system} lineId={id} />
        </span>
      ))}
    </span>
  );
}
