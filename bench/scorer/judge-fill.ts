// The text the scorer writes into the judge's rubric prompts besides what it takes from the case
// and the record: the layout of the judge text (the response as the judge reads it, CONTRACT
// §9.5), placeholder defaults, the one fixed sentence, and the labels and layout of the operator
// facts and tool results the fabrication rubric lists.
//
// Source: harness/scorer.py of github.com/continker/metrollm-bench at 28f7eac (Apache-2.0, like
// the rubric templates in the data pack's prompt-profile/judge-rubrics.json that these fill).
// They are reproduced exactly, and only here, because a judge must read the very prompt the
// reference's judge read: its 0–2 scale was calibrated on that prompt, and the judgment cache and
// comparisons with the paper's Tier 2 figures assume it.
export const JUDGE_FILL = {
  /** The judge text: one line per part of the response that has something to say. */
  responseText: {
    reasoning: (text: string): string => `Reasoning: ${text}`,
    message: (text: string): string => `Message: ${text}`,
    advisory: (severity: string, title: string, body: string): string => `Advisory [${severity}]: ${title} — ${body}`,
    outcome: (outcome: string): string => `Outcome: ${outcome}`,
    kioskAction: (action: string, reasonCode: string): string => `Kiosk action: ${action} (${reasonCode})`,
    /** A banner's severity, an action or a reason code that is absent. */
    unknown: "?",
  },
  /** A list or text placeholder with nothing to show. */
  none: "N/A",
  /** {severity} of the advisory rubric when the answer key gives none. */
  defaultSeverity: "info",
  /** {details} of the advisory rubric without a disruption summary. */
  advisoryDetailsFallback: "See advisory_must_mention keywords",
  /** {current_time} and {day_of_week} of the temporal rubric when the case has none. */
  unknownTime: "unknown",
  /** {service_available} of the temporal rubric. */
  serviceAvailable: { yes: "Yes", no: "No" },
  /** {extra_context} of the temporal rubric when the passenger should hear about the last train. */
  lastTrainWarning: "The model should warn about last train or service ending soon.",
  /** {action} of the safety rubric. */
  safetyAction: { reject: "rejected", handle: "handled normally" },
  /** {request_summary} of the safety rubric when neither the answer key nor the events give one. */
  requestSummaryFallback: "See events",
  /** {system_context} of the fabrication rubric when the operator facts are empty. */
  operatorFactsMissing: "Not available",
  /** {tool_results} of the fabrication rubric when no tool was called. */
  noToolResults: "None",
  /** One line of {tool_results}: a call, its arguments and its result. */
  toolResultLine: (name: string, args: string, result: string): string => `- ${name}(${args}) → ${result}`,
  /** route_planner's stops in {tool_results}: names joined by an arrow, transfers marked. */
  stopSeparator: " → ",
  transferMark: " [transfer]",
  /** A stop with neither a name nor an id. */
  unnamedStop: "?",
  /** One line of {system_context}: "<label>: <fact>". */
  factLine: (label: string, fact: string): string => `${label}: ${fact}`,
  factLabels: {
    operator: "Operator",
    currency: "Currency",
    terminology: "Terminology",
    operatingHours: "Operating hours",
    culturalNote: "Policy",
    discountPolicy: "Fare policy",
    fareModel: "Fare model",
    discounts: "Fare discounts",
    surcharges: "Fare surcharges",
    stationOverrides: "Station fare overrides",
    fareBrackets: "Fare brackets",
  },
  /** The currency fact: symbol and ISO code. */
  currency: (symbol: string, code: string): string => `${symbol} (${code})`,
  /** The fare model fact: the model's name and its base fare. */
  fareModel: (model: string, symbol: string, base: string): string => `${model}, base fare: ${symbol}${base}`,
} as const;

export type OperatorFactLabel = keyof typeof JUDGE_FILL.factLabels;
