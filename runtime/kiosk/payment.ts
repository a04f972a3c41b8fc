// The payment terminal seam. A sale pre-authorises the amount, commits the sale to the ledger and
// only then captures; if the ledger cannot record the sale the authorisation is voided, so a
// passenger is never charged for a ticket the kiosk could not issue.

export interface PaymentRequest {
  /** Amount in the currency's major unit (e.g. 2.5 USD). */
  amount: number;
  currency: string;
  /** The fares.json payment method key the passenger chose (e.g. "breeze_card"). */
  method: string;
  /** Our reference for the terminal's records (the ticket id to be issued). */
  reference: string;
}

export type AuthorizationResult =
  | { approved: true; authorizationId: string }
  | { approved: false; reason: string };

export interface PaymentTerminal {
  readonly id: string;
  authorize(request: PaymentRequest): Promise<AuthorizationResult>;
  /** Take the authorised money. Throws when the terminal cannot (the sale is then voided). */
  capture(authorizationId: string): Promise<void>;
  /** Release an authorisation that will not be captured. */
  void(authorizationId: string): Promise<void>;
}

export interface SimulatedPaymentOptions {
  /** Decide a decline (return its reason) — e.g. for tests or a demo "declined card". */
  decline?: (request: PaymentRequest) => string | null;
  /** Make capture fail (tests). */
  failCapture?: boolean;
  /** Simulated terminal latency in ms (0 = answer immediately). */
  delayMs?: number;
}

export type SimulatedPaymentOperation =
  | { op: "authorize"; request: PaymentRequest; result: AuthorizationResult }
  | { op: "capture" | "void"; authorizationId: string };

/** A terminal that approves everything (unless told otherwise) and remembers what it did. */
export class SimulatedPaymentTerminal implements PaymentTerminal {
  readonly id = "simulated";
  readonly operations: SimulatedPaymentOperation[] = [];
  private counter = 0;
  private readonly open = new Set<string>();

  constructor(private readonly options: SimulatedPaymentOptions = {}) {}

  private async wait(): Promise<void> {
    const ms = this.options.delayMs ?? 0;
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  }

  async authorize(request: PaymentRequest): Promise<AuthorizationResult> {
    await this.wait();
    const reason = this.options.decline?.(request) ?? null;
    let result: AuthorizationResult;
    if (reason !== null) result = { approved: false, reason };
    else if (!(request.amount >= 0) || !Number.isFinite(request.amount)) result = { approved: false, reason: "invalid amount" };
    else {
      const authorizationId = `SIM-${(++this.counter).toString().padStart(6, "0")}`;
      this.open.add(authorizationId);
      result = { approved: true, authorizationId };
    }
    this.operations.push({ op: "authorize", request: { ...request }, result });
    return result;
  }

  async capture(authorizationId: string): Promise<void> {
    await this.wait();
    if (this.options.failCapture) throw new Error("simulated capture failure");
    if (!this.open.delete(authorizationId)) throw new Error(`no open authorisation ${authorizationId}`);
    this.operations.push({ op: "capture", authorizationId });
  }

  async void(authorizationId: string): Promise<void> {
    await this.wait();
    this.open.delete(authorizationId);
    this.operations.push({ op: "void", authorizationId });
  }

  /** Authorisations neither captured nor voided (should be none after every sale). */
  get openAuthorizations(): number {
    return this.open.size;
  }
}
