// View state of the screen (zustand): the systems on offer, the passenger's journey draft and
// display preferences. The flow itself lives in the XState machine; this store is wiped with it.
import { createStore, type StoreApi } from "zustand/vanilla";
import type { RiderType, SpeechStatus, SystemSummary, SystemView } from "../../runtime/kiosk/bridge.ts";
import type { BridgeFailure } from "../bridge/errors.ts";
import { screenLanguageOf, type Language } from "../i18n/catalog.ts";
import type { HeadsetProblem } from "../lib/headsetSpeech.ts";
import { emptyJourney, journeyWithChoice, MAX_PASSENGERS_PER_TYPE, type JourneyDraft } from "../lib/askDraft.ts";
import type { AskDraft } from "../machines/kioskMachine.ts";

export type StationField = "origin" | "destination";
export type Panel = "none" | "origin" | "destination" | "chat";

export interface ViewState {
  language: Language;
  /** The kiosk's default language (the system's primary language when the screen has it). */
  defaultLanguage: Language;
  highContrast: boolean;
  largeText: boolean;
  /** Headset mode: everything is spoken (the passenger listens privately on the headset). */
  headset: boolean;
  /** The audio guide speaks each focus change and result: on with the headset or the keypad. */
  audioGuide: boolean;
  /** Speech volume, 0.2–1 (keypad + and −); reset with the session. */
  volume: number;
  /** Why headset mode could not speak the last reading (no headset, no voice…): the screen says so, and nothing is spoken. */
  headsetProblem: HeadsetProblem | null;
  /** Which audio output is the headset: the kiosk config's label pattern (KioskStatus.headsetPattern). */
  headsetPattern: string | undefined;
  /** The kiosk's speech engines and headset voices (KioskStatus.speech). */
  speech: SpeechStatus | undefined;

  systems: SystemSummary[];
  system: SystemView | null;
  systemFailure: BridgeFailure | null;

  journey: JourneyDraft;
  /** The journey as of the last ask of this session (follow-ups send only what changed). */
  asked: JourneyDraft | null;
  panel: Panel;

  setLanguage(language: Language): void;
  toggleHighContrast(): void;
  toggleLargeText(): void;
  toggleHeadset(): void;
  setHeadsetProblem(problem: HeadsetProblem | null): void;
  setHeadsetPattern(pattern: string | undefined): void;
  setSpeech(speech: SpeechStatus | undefined): void;
  startAudioGuide(): void;
  changeVolume(step: number): void;
  setSystems(systems: SystemSummary[]): void;
  setSystem(system: SystemView): void;
  setSystemFailure(failure: BridgeFailure | null): void;
  openPanel(panel: Panel): void;
  selectStation(field: StationField, stationId: string): void;
  swapStations(): void;
  setPassengers(rider: RiderType, count: number): void;
  setPaymentMethod(method: string | null): void;
  setFreetext(text: string): void;
  setStepFree(stepFree: boolean): void;
  /** Remember what was asked; the free text is per turn, so it is cleared. */
  markAsked(): void;
  /** The passenger tapped one of the assistant's choices: the journey takes it, and it is what was asked. */
  applyChoice(events: AskDraft["events"]): void;
  /** Forget the passenger: journey, session memory, panel and display preferences. */
  wipe(): void;
}

export type ViewStore = StoreApi<ViewState>;

export function createViewStore(initial: Partial<Pick<ViewState, "language" | "highContrast" | "largeText">> = {}): ViewStore {
  const language = initial.language ?? "en";
  return createStore<ViewState>()((set, get) => ({
    language,
    defaultLanguage: language,
    highContrast: initial.highContrast ?? false,
    largeText: initial.largeText ?? false,
    headset: false,
    audioGuide: false,
    volume: 1,
    headsetProblem: null,
    headsetPattern: undefined,
    speech: undefined,
    systems: [],
    system: null,
    systemFailure: null,
    journey: emptyJourney(),
    asked: null,
    panel: "none",

    setLanguage: (next) => set({ language: next }),
    toggleHighContrast: () => set((s) => ({ highContrast: !s.highContrast })),
    toggleLargeText: () => set((s) => ({ largeText: !s.largeText })),
    toggleHeadset: () => set((s) => ({ headset: !s.headset, audioGuide: !s.headset || s.audioGuide, headsetProblem: null })),
    setHeadsetPattern: (headsetPattern) => set({ headsetPattern }),
    setSpeech: (speech) => set({ speech }),
    setHeadsetProblem: (headsetProblem) => set((s) => (s.headsetProblem === headsetProblem ? s : { headsetProblem })),
    startAudioGuide: () => set({ audioGuide: true }),
    changeVolume: (step) => set((s) => ({ volume: Math.round(Math.max(0.2, Math.min(1, s.volume + step)) * 10) / 10 })),
    setSystems: (systems) => set({ systems }),
    setSystem: (system) => {
      const defaultLanguage = screenLanguageOf(system.primaryLanguage) ?? get().defaultLanguage;
      const changed = get().system?.id !== system.id;
      set({
        system,
        systemFailure: null,
        defaultLanguage,
        ...(changed ? { language: defaultLanguage, journey: emptyJourney(), asked: null, panel: "none" as const } : {}),
      });
    },
    setSystemFailure: (systemFailure) => set({ systemFailure }),
    openPanel: (panel) => set({ panel }),
    selectStation: (field, stationId) =>
      set((s) => ({ journey: { ...s.journey, [field]: stationId }, panel: "none" })),
    swapStations: () =>
      set((s) => ({ journey: { ...s.journey, origin: s.journey.destination, destination: s.journey.origin } })),
    setPassengers: (rider, count) =>
      set((s) => ({
        journey: {
          ...s.journey,
          passengers: { ...s.journey.passengers, [rider]: Math.max(0, Math.min(MAX_PASSENGERS_PER_TYPE, Math.round(count))) },
          passengersSet: true,
        },
      })),
    setPaymentMethod: (paymentMethod) => set((s) => ({ journey: { ...s.journey, paymentMethod } })),
    setFreetext: (freetext) => set((s) => ({ journey: { ...s.journey, freetext } })),
    setStepFree: (stepFree) => set((s) => ({ journey: { ...s.journey, stepFree } })),
    markAsked: () =>
      set((s) => ({ asked: { ...s.journey, freetext: "" }, journey: { ...s.journey, freetext: "" }, panel: "none" })),
    applyChoice: (events) =>
      set((s) => {
        const journey = journeyWithChoice(s.journey, events);
        return { journey, asked: journey, panel: "none" };
      }),
    wipe: () =>
      set((s) => ({
        journey: emptyJourney(),
        asked: null,
        panel: "none",
        language: s.defaultLanguage,
        highContrast: false,
        largeText: false,
        headset: false,
        audioGuide: false,
        volume: 1,
        headsetProblem: null,
      })),
  }));
}
