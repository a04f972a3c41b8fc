// Pack cases whose answer key contradicts the pack's own framebook, with why. The fail-closed
// figures leave them out and the robustness report lists their offers apart from the wrong ones;
// neither hides them: both name each case and the reason.
export const DISPUTED_NO_SALE: Readonly<Record<string, string>> = {
  "CTA-I-004": "the Blue Line runs 24 hours (framebook twenty_four_hour_lines); the answer key says no service at 03:45",
};
