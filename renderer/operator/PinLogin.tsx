// The operator login: the operator's name (recorded in the audit log) and the kiosk PIN, on the
// on-screen keyboard and a PIN keypad (a physical keyboard works too). Wrong PINs and lockouts are
// counted by the runtime; the screen only says what it answered.
import { useEffect, useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { OperatorBridge, OperatorLoginResult } from "../../runtime/kiosk/bridge.ts";
import { toOperatorError } from "../bridge/operatorBridge.ts";
import { Icon } from "../components/Icon.tsx";
import { dropLastCharacter, OnScreenKeyboard } from "../components/OnScreenKeyboard.tsx";
import type { OperatorSession } from "./session.ts";

const MAX_PIN = 12;

export function PinLogin(props: { bridge: OperatorBridge; notice?: string | null; onLogin: (session: OperatorSession) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [pin, setPin] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(props.notice ?? null);
  const [lockedUntil, setLockedUntil] = useState<number | null>(null);
  const [keyboard, setKeyboard] = useState(false);
  const [, setTick] = useState(0);
  const nameId = useId();
  const pinId = useId();
  const locked = lockedUntil !== null && lockedUntil > Date.now();

  // Count the lockout down on screen.
  useEffect(() => {
    if (lockedUntil === null) return;
    const timer = setInterval(() => {
      if (Date.now() >= lockedUntil) {
        setLockedUntil(null);
        setMessage(null);
      } else setTick((n) => n + 1);
    }, 1000);
    return () => clearInterval(timer);
  }, [lockedUntil]);

  function explain(result: Extract<OperatorLoginResult, { ok: false }>): string {
    if (result.reason === "not_configured") return t("operator.login.notConfigured");
    if (result.reason === "locked") return t("operator.login.locked", { seconds: Math.ceil(result.retryAfterMs / 1000) });
    return t("operator.login.wrongPin", { count: result.attemptsLeft });
  }

  async function submit(event?: FormEvent): Promise<void> {
    event?.preventDefault();
    if (busy || locked) return;
    if (name.trim() === "") {
      setMessage(t("operator.login.needName"));
      return;
    }
    if (!/^\d{4,12}$/.test(pin)) return;
    setBusy(true);
    try {
      const result = await props.bridge.login({ operator: name.trim(), pin });
      if (result.ok) {
        props.onLogin({ token: result.token, operator: result.operator });
        return;
      }
      setPin("");
      setMessage(explain(result));
      if (result.reason === "locked") setLockedUntil(Date.now() + result.retryAfterMs);
    } catch (error) {
      setMessage(t(`operator.error.${toOperatorError(error).code}`));
    } finally {
      setBusy(false);
    }
  }

  const press = (digit: string): void => {
    setKeyboard(false);
    setPin((p) => (p.length < MAX_PIN ? p + digit : p));
  };
  const secondsLeft = lockedUntil ? Math.max(0, Math.ceil((lockedUntil - Date.now()) / 1000)) : 0;

  return (
    <form className="op-login op-card" onSubmit={(event) => void submit(event)} aria-labelledby={`${nameId}-title`}>
      <h1 id={`${nameId}-title`} tabIndex={-1}>
        <Icon name="staff" /> {t("operator.login.title")}
      </h1>
      <p className="op-muted">{t("operator.login.intro")}</p>
      <div className="op-field">
        <label htmlFor={nameId}>{t("operator.login.name")}</label>
        <div className="op-row">
          <input
            id={nameId}
            className="op-input"
            type="text"
            autoComplete="off"
            spellCheck={false}
            maxLength={60}
            value={name}
            onChange={(event) => setName(event.target.value)}
            onFocus={() => setKeyboard(true)}
          />
          <button type="button" className="op-button op-button-secondary" aria-pressed={keyboard} onClick={() => setKeyboard((k) => !k)}>
            <Icon name="keyboard" /> <span className="visually-hidden">{t("keyboard.label")}</span>
          </button>
        </div>
      </div>
      {keyboard ? (
        <OnScreenKeyboard onInput={(text) => setName((n) => (n + text).slice(0, 60))} onBackspace={() => setName((n) => dropLastCharacter(n))} onClear={() => setName("")} />
      ) : null}
      <div className="op-field">
        <label htmlFor={pinId}>{t("operator.login.pin")}</label>
        <input
          id={pinId}
          className="op-input op-pin"
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={MAX_PIN}
          value={pin}
          disabled={locked}
          onChange={(event) => setPin(event.target.value.replace(/\D/g, "").slice(0, MAX_PIN))}
          onFocus={() => setKeyboard(false)}
        />
      </div>
      <div className="op-keypad" role="group" aria-label={t("operator.login.keypad")}>
        {["1", "2", "3", "4", "5", "6", "7", "8", "9"].map((digit) => (
          <button key={digit} type="button" className="op-key" disabled={locked} onClick={() => press(digit)}>
            {digit}
          </button>
        ))}
        <button type="button" className="op-key op-key-fn" disabled={locked} onClick={() => setPin("")}>
          {t("operator.login.clear")}
        </button>
        <button type="button" className="op-key" disabled={locked} onClick={() => press("0")}>
          0
        </button>
        <button type="button" className="op-key op-key-fn" disabled={locked} onClick={() => setPin((p) => p.slice(0, -1))}>
          {t("operator.login.backspace")}
        </button>
      </div>
      {message ? (
        <p className="op-notice op-notice-warning" role="alert">
          <Icon name="warning" /> <span>{locked ? t("operator.login.locked", { seconds: secondsLeft }) : message}</span>
        </p>
      ) : null}
      <button type="submit" className="op-button op-button-primary op-button-wide" disabled={busy || locked || pin.length < 4}>
        {busy ? t("operator.working") : t("operator.login.submit")}
      </button>
    </form>
  );
}
