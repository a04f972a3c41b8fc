// The stored passenger sessions a preview replays (`framebook preview`, `apply --preview`,
// `alerts add --preview`): the latest N of the session audit, from --audit-db.
import type { Command } from "commander";
import type { SystemId } from "../tools/data/schemas.ts";
import type { SessionAudit } from "../runtime/audit/model.ts";
import { AUDIT_DB_ENV, auditDbPath, SessionAuditStore } from "../runtime/audit/store.ts";
import { DEFAULT_REPLAY_SESSIONS } from "../runtime/replay/replay.ts";
import { positiveInt } from "./bench-run.ts";
import { UsageError } from "./context.ts";

export interface PreviewOptions {
  sessions?: string;
  auditDb?: string;
}

/** --sessions and --audit-db on a command that previews. */
export function addPreviewOptions(cmd: Command, prefix = ""): Command {
  return cmd
    .option("--sessions <n>", `${prefix}how many of the latest stored sessions to replay (default ${DEFAULT_REPLAY_SESSIONS})`)
    .option("--audit-db <file>", `${prefix}session audit (else $${AUDIT_DB_ENV}, else ./var/audit.sqlite)`);
}

/** The latest sessions of `system` in the session audit, newest first. */
export function storedSessions(opts: PreviewOptions, system: SystemId): SessionAudit[] {
  const n = opts.sessions !== undefined ? positiveInt(opts.sessions, "--sessions") : DEFAULT_REPLAY_SESSIONS;
  let audit: SessionAuditStore;
  try {
    audit = SessionAuditStore.open(auditDbPath(opts.auditDb));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  try {
    return audit.recent(n, system);
  } finally {
    audit.close();
  }
}
