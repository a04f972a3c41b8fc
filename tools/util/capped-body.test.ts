// Answers are read under a byte cap: refused as soon as they declare or stream more, never buffered whole.
import { describe, expect, it } from "vitest";
import { BodyTooLargeError, readCappedBytes, readCappedText } from "./capped-body.ts";

/** A body that streams `chunk`-byte pieces without end, counting what was pulled from it. */
function endless(chunk: number): { response: Response; pulled: () => number } {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += chunk;
      controller.enqueue(new Uint8Array(chunk));
    },
  });
  return { response: new Response(stream), pulled: () => pulled };
}

describe("capped answer bodies", () => {
  it("reads an answer within the cap", async () => {
    expect(await readCappedText(new Response("héllo"), 6)).toBe("héllo");
    expect((await readCappedBytes(new Response(null), 10)).byteLength).toBe(0);
  });

  it("refuses an endless answer after about the cap, and one declaring more than the cap before reading it", async () => {
    const { response, pulled } = endless(64 * 1024);
    await expect(readCappedBytes(response, 1024 * 1024, "the back office's answer")).rejects.toThrow(new BodyTooLargeError(1024 * 1024, "the back office's answer"));
    expect(pulled()).toBeLessThan(2 * 1024 * 1024);
    const declared = new Response("x".repeat(100), { headers: { "content-length": "100" } });
    await expect(readCappedText(declared, 99)).rejects.toBeInstanceOf(BodyTooLargeError);
  });
});
