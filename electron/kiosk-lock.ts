// Kiosk mode leaves no way out but the operator's (issue 13, finding 16): no application menu
// (whose accelerators — Ctrl+W, Ctrl+Q, Ctrl+R, Ctrl+Shift+I — would close, quit, reload or open
// devtools), and a window close (Alt+F4, a window manager's close) refused unless the app itself
// is quitting (system shutdown, SIGTERM → app.quit()). Functions take the Electron objects they
// configure, so tests pass fakes.

export interface MenuLike {
  setApplicationMenu(menu: null): void;
}

interface ClosableWindow {
  on(event: "close", listener: (event: { preventDefault(): void }) => void): unknown;
  removeMenu?(): void;
}

/** Remove the application menu (and with it every default accelerator). */
export function removeApplicationMenu(menu: MenuLike): void {
  menu.setApplicationMenu(null);
}

/**
 * In kiosk mode, refuse to close the window unless `quitting()` (set from app "before-quit").
 * Returns whether the lock is on.
 */
export function lockKioskWindow(win: ClosableWindow, options: { kiosk: boolean; quitting: () => boolean; log?: (m: string) => void }): boolean {
  win.removeMenu?.();
  if (!options.kiosk) return false;
  win.on("close", (event) => {
    if (options.quitting()) return;
    event.preventDefault();
    options.log?.("window close refused (kiosk mode)");
  });
  return true;
}
