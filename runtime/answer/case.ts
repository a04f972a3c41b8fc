// A benchmark case answered the way the kiosk answers a passenger (`bench run --policy hybrid`): the
// case's turns go through the answer pipeline one at a time, as a passenger would give them, and
// the record of the answer shown after the last turn is the case's result — with the router's
// decision, who answered and the kiosk's verdict (purchasable, interlock problems, fallback).
import type { DataPack } from "../../tools/data/datapack.ts";
import type { Case } from "../../tools/data/schemas.ts";
import { caseSetup, caseTurns } from "../session/case.ts";
import type { SessionRecord } from "../session/record.ts";
import type { Answer, AnswerPipeline } from "./pipeline.ts";
import { kioskVerdict } from "./verdict.ts";

export async function answerCase(pipeline: AnswerPipeline, pack: DataPack, kase: Case, options: { signal?: AbortSignal } = {}): Promise<SessionRecord> {
  const conversation = pipeline.open(caseSetup(pack, kase));
  const t0 = pipeline.now();
  try {
    let answer: Answer | undefined;
    for (const turn of caseTurns(kase)) {
      answer = await conversation.answer(turn, options.signal ? { signal: options.signal } : {});
      if (options.signal?.aborted) break;
    }
    const last = answer as Answer;
    const { record } = last;
    return {
      ...record,
      // The passenger waited for every turn's answer, provisional and model check included.
      e2e_ms: pipeline.now() - t0,
      kiosk: {
        ...record.kiosk,
        // Cut short (it runs again on resume), whatever the last record says.
        termination: options.signal?.aborted ? "aborted" : record.kiosk.termination,
        policyInfo: {
          mode: pipeline.mode,
          ...(last.route ? { router: { path: last.route.path, reason: last.route.reason, detail: last.route.detail } } : {}),
          answeredBy: last.decidedBy,
          ...(last.modelFailure ? { fallbackReason: `${last.modelFailure.termination}${last.modelFailure.error ? `: ${last.modelFailure.error}` : ""}` } : {}),
          ...(last.changed ? { changed: last.note } : {}),
          turns: conversation.turns.length,
        },
        verdict: kioskVerdict(last.verdict, record, last.decidedBy),
      },
    };
  } finally {
    await conversation.close();
  }
}
