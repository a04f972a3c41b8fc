// knowledge_base: exact policy lookup by id, else a keyword search ranked by matching words.
import type { Policy } from "../data/schemas.ts";
import { pyLen, pySplit } from "./pyops.ts";
import type { KnowledgeBaseInput, KnowledgeBaseResult } from "./schemas.ts";
import type { SessionState } from "./state.ts";

/** At most this many search hits are returned. */
const TOP_HITS = 3;

/** Each policy's searchable text (title, content and synonyms, lower-cased), built once per policy list. */
const searchTextsByPolicies = new WeakMap<readonly Policy[], readonly string[]>();

function searchTexts(policies: readonly Policy[]): readonly string[] {
  let texts = searchTextsByPolicies.get(policies);
  if (!texts) {
    texts = policies.map((p) => `${`${p.title} ${p.content}`.toLowerCase()} ${p.synonyms.join(" ").toLowerCase()}`);
    searchTextsByPolicies.set(policies, texts);
  }
  return texts;
}

export function knowledgeBase(state: SessionState, req: KnowledgeBaseInput): KnowledgeBaseResult {
  const policies = state.system.policies;
  if (req.policy_id) {
    const policy = policies.find((p) => p.policy_id === req.policy_id);
    if (!policy) return { results: [], found: false };
    return { results: [{ title: policy.title, content: policy.content, policy_id: req.policy_id }], found: true };
  }
  if (!req.query) return { results: [], found: false };

  // Words longer than two characters, lowercased; punctuation stays attached to its word.
  const words = pySplit(req.query)
    .filter((w) => pyLen(w) > 2)
    .map((w) => w.toLowerCase());
  const scored: { hits: number; index: number }[] = [];
  searchTexts(policies).forEach((text, index) => {
    let hits = 0;
    for (const w of words) if (text.includes(w)) hits++;
    if (hits > 0) scored.push({ hits, index });
  });
  // Stable: equal hit counts keep the policies' file order.
  scored.sort((a, b) => b.hits - a.hits);
  const results = scored.slice(0, TOP_HITS).map(({ index }) => {
    const p = policies[index] as Policy;
    return { title: p.title, content: p.content, policy_id: p.policy_id };
  });
  return { results, found: results.length > 0 };
}
