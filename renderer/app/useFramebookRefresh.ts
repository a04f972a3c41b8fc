// A framebook applied by an operator reaches the screen with the kiosk's pushed state (its
// framebookVersions): the attract screen reloads the system's view at once. A passenger session in
// progress keeps the view it started with (the kiosk answers it with the framebook it started on);
// the reload happens when it is back on the attract screen.
import { useEffect, useRef } from "react";
import type { SystemSummary } from "../../runtime/kiosk/bridge.ts";
import { useView } from "../state/ViewStoreProvider.tsx";
import { useKiosk, useScreen } from "./KioskActor.tsx";

export function useFramebookRefresh(reload: (id: SystemSummary["id"]) => Promise<void>): void {
  const screen = useScreen();
  const system = useView((s) => s.system);
  const active = useKiosk((s) => (system ? s.context.status?.framebookVersions[system.id] : undefined));
  // One reload per version the kiosk announces (never a loop, whatever the view then says).
  const reloadedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!system || active === undefined || active === system.framebookVersion || screen !== "attract") return;
    const key = `${system.id}@${active}`;
    if (reloadedFor.current === key) return;
    reloadedFor.current = key;
    void reload(system.id);
  }, [active, screen, system, reload]);
}
