// The fare table's child rule — the qualifier of its children's ticket ("under 5", "under 120cm") —
// read in one place for the policy, the passenger-language layer and the purchase interlock alike.

/** Who may travel on the children's ticket: under an age, or under a height. */
export type ChildLimit = { age: number } | { cm: number };

const HEIGHT = /\bunder\s+(\d{2,3})\s*cm\b/i;
const AGE = /\bunder\s+(\d{1,2})\b(?![.,]\d)(?!\s*(?:cm|m|kg)\b)(?:\s*(?:years?|yrs?)(?:\s+old)?)?/i;

/** "under 5" → { age: 5 }, "under 120cm" → { cm: 120 }; a qualifier naming neither → undefined. */
export function childLimitOf(qualifier: string | undefined): ChildLimit | undefined {
  const height = HEIGHT.exec(qualifier ?? "");
  if (height) return { cm: Number(height[1]) };
  const age = AGE.exec(qualifier ?? "");
  return age ? { age: Number(age[1]) } : undefined;
}

/** The children's ticket's age limit (undefined: no child rule, or one by height). */
export function childAgeLimit(qualifier: string | undefined): number | undefined {
  const limit = childLimitOf(qualifier);
  return limit && "age" in limit ? limit.age : undefined;
}
