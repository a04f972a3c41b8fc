import { expect, it } from "vitest";
import { HEARTBEAT_PATH, HeartbeatSchema, type Heartbeat } from "../../fleet/protocol.ts";
import { HeartbeatSender } from "./heartbeat-sender.ts";

const beat: Heartbeat = {
  kioskId: "k1",
  sentAt: "2026-12-01T12:00:00.000Z",
  softwareVersion: "0.1.0",
  systems: [{ system: "marta", framebookVersion: "v1", alerts: [] }],
  model: { assistant: "rule", state: null },
  replication: { pending: 0, oldestPendingAt: null },
  bench: null,
};

it("posts a valid heartbeat with the token, and a failure is logged once and retried without throwing", async () => {
  const calls: { url: string; auth: string | null; body: unknown }[] = [];
  let down = true;
  const logs: string[] = [];
  const sender = new HeartbeatSender({
    url: "http://bo.example:8790",
    token: "tok-123",
    collect: () => beat,
    log: (m) => logs.push(m),
    fetch: (async (url: URL, init: RequestInit) => {
      calls.push({ url: String(url), auth: new Headers(init.headers).get("authorization"), body: JSON.parse(String(init.body)) });
      if (down) throw new Error("ECONNREFUSED");
      return new Response("{}", { status: 200 });
    }) as unknown as typeof fetch,
  });
  expect(await sender.send()).toBe(false);
  expect(await sender.send()).toBe(false);
  down = false;
  expect(await sender.send()).toBe(true);
  expect(calls).toHaveLength(3);
  expect(calls[2]).toMatchObject({ url: `http://bo.example:8790${HEARTBEAT_PATH}`, auth: "Bearer tok-123" });
  expect(HeartbeatSchema.parse(calls[2]!.body)).toEqual(beat);
  expect(logs).toEqual([expect.stringContaining("heartbeat to http://bo.example:8790 failed (ECONNREFUSED)"), "heartbeat to http://bo.example:8790 resumed"]);
  expect({ sent: sender.sent, failures: sender.failures }).toEqual({ sent: 1, failures: 2 });
});
