// How tool failures reach the caller: the exact HTTP status and body text of the reference server.
import { pyJsonDumps } from "../py/json.ts";
import type { PydanticError } from "./pydantic.ts";
import { HTTP_BODIES } from "../wire/messages.ts";

/** An explicit failure (FastAPI HTTPException): status 404/422 with `{"detail": message}`. */
export class HttpError extends Error {
  override name = "HttpError";
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** FastAPI's JSONResponse text: compact separators, non-ASCII kept, Python float printing. */
export function fastApiJson(content: unknown): string {
  return pyJsonDumps(content, { compact: true, ensureAscii: false });
}

export function detailBody(detail: string | readonly PydanticError[]): string {
  return fastApiJson({ detail });
}

/** The body Starlette sends for an unhandled exception. */
export const INTERNAL_ERROR_BODY = HTTP_BODIES.internalServerError;
export const NOT_FOUND_BODY = detailBody(HTTP_BODIES.notFound);
