// Reading a JSON request body under a size limit, for both HTTP servers of the product (`kiosk
// serve` and the back office): one guard, so the two cannot drift apart — a declared or streamed
// size over the limit is refused before it is buffered, and a refused request's connection is
// closed rather than reused.
import type { IncomingMessage, ServerResponse } from "node:http";

/** Why a body was refused, with the HTTP status that says so (each server maps it to its own answer). */
export class BodyRefusedError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
    /** The field at fault: "(body)" when the body itself is not JSON. */
    readonly field: string | null = null,
  ) {
    super(message);
  }
}

/** The body parsed as JSON; a BodyRefusedError when it is not declared JSON, too large, or not JSON. */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") throw new BodyRefusedError(415, "expected a JSON body (content-type: application/json)");
  const tooLarge = (): BodyRefusedError => new BodyRefusedError(413, `request body larger than the limit of ${limit} bytes`);
  if (Number(req.headers["content-length"] ?? 0) > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    throw new BodyRefusedError(400, "request body is not valid JSON", "(body)");
  }
}

/**
 * Before an error answer: a request refused before its body was read to the end leaves the
 * connection in an unknown state (the client may still be sending), so it is closed after the
 * answer instead of reused — a reused half-read connection is reset under load (ECONNRESET on the
 * client's next call).
 */
export function closeIfBodyUnread(req: IncomingMessage, res: ServerResponse): void {
  if (!req.complete) res.setHeader("Connection", "close");
}
