// Reading an HTTP answer under a byte cap: whatever the kiosk reads from the back office, a
// service-alert feed or a model endpoint is refused once it passes the cap — never buffered whole —
// so a huge or endless answer costs at most the cap in memory. (Time limits are the callers'
// abort signals, which also stop a body being read.)

/** An answer larger than the reader allows. */
export class BodyTooLargeError extends Error {
  constructor(
    readonly limit: number,
    what: string,
  ) {
    super(`${what} is larger than the limit of ${limit} bytes; not read`);
    this.name = "BodyTooLargeError";
  }
}

/** The body's bytes, or a BodyTooLargeError as soon as it declares or streams more than `limit`. */
export async function readCappedBytes(response: Response, limit: number, what = "the answer"): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(limit, what);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(limit, what);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/** The body as UTF-8 text, under the same cap. */
export async function readCappedText(response: Response, limit: number, what = "the answer"): Promise<string> {
  return new TextDecoder().decode(await readCappedBytes(response, limit, what));
}
