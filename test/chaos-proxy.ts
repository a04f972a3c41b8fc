// An unreliable network between kiosks and the back office, for the fleet test (issue 18): an HTTP
// proxy that, per request and by a seeded random draw, kills the connection before forwarding (a
// partition: the back office never sees it), forwards and then kills it (the acknowledgement is
// lost: the kiosk must resend), delivers it twice (the copy later, after newer batches: duplicated
// and reordered), or holds it past the kiosk's time limit (the kiosk retries while the original
// still arrives later). A hook sees every request first (the test SIGKILLs a kiosk there).
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mulberry32 } from "../tools/util/random.ts";

export interface ChaosOdds {
  /** Kill the connection without forwarding. */
  dropBefore: number;
  /** Forward, then kill the connection instead of answering. */
  dropAfter: number;
  /** Forward and answer, and deliver a copy again `0..maxDelayMs` later. */
  duplicate: number;
  /** Hold the request `0..maxDelayMs` before forwarding. */
  delay: number;
  maxDelayMs: number;
}

export interface ChaosStats {
  requests: number;
  killedBefore: number;
  killedAfter: number;
  duplicated: number;
  delayed: number;
  /** Forwarding failed (the back office was down): the connection was killed. */
  upstreamDown: number;
}

export interface ChaosProxy {
  url: string;
  stats: ChaosStats;
  /** Point at another back office (after a restart on a new port). */
  setTarget(url: string): void;
  close(): Promise<void>;
}

/** Seeded, so a failing run can be replayed with its seed. */
export const seededRandom = mulberry32;

interface Delivery {
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

function deliver(target: string, d: Delivery): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(d.path, target), { method: "POST", headers: { ...d.headers, "content-length": String(d.body.length) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 502, headers: { "content-type": String(res.headers["content-type"] ?? "application/json") }, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(d.body);
  });
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
}

export async function startChaosProxy(options: {
  target: string;
  odds: ChaosOdds;
  random: () => number;
  /** Sees each request (its parsed JSON body) before anything else; may wait (the test kills a kiosk here). */
  onRequest?: (body: unknown) => Promise<void> | void;
}): Promise<ChaosProxy> {
  let target = options.target;
  const { odds, random } = options;
  const stats: ChaosStats = { requests: 0, killedBefore: 0, killedAfter: 0, duplicated: 0, delayed: 0, upstreamDown: 0 };
  const pending = new Set<Promise<unknown>>();
  const track = (p: Promise<unknown>): void => {
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };
  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

  const server: Server = createServer((req, res) => {
    const handle = async (): Promise<void> => {
      const body = await readAll(req);
      stats.requests++;
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(body.toString("utf8"));
      } catch {
        // forwarded as it is: the back office answers 400
      }
      await options.onRequest?.(parsed);
      const delivery: Delivery = {
        path: req.url ?? "/",
        headers: { "content-type": String(req.headers["content-type"] ?? ""), authorization: String(req.headers.authorization ?? "") },
        body,
      };
      const draw = random();
      if (draw < odds.dropBefore) {
        stats.killedBefore++;
        req.socket.destroy();
        return;
      }
      if (draw < odds.dropBefore + odds.delay) {
        stats.delayed++;
        await sleep(random() * odds.maxDelayMs);
      }
      const answer = await deliver(target, delivery);
      if (draw >= odds.dropBefore + odds.delay && draw < odds.dropBefore + odds.delay + odds.duplicate) {
        stats.duplicated++;
        const copyAfter = random() * odds.maxDelayMs;
        track(sleep(copyAfter).then(() => deliver(target, delivery).catch(() => undefined)));
      }
      if (random() < odds.dropAfter) {
        stats.killedAfter++;
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status, { ...answer.headers, "content-length": answer.body.length });
      res.end(answer.body);
    };
    handle().catch(() => {
      stats.upstreamDown++;
      req.socket.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    setTarget: (url) => {
      target = url;
    },
    close: async () => {
      await Promise.allSettled([...pending]);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
