// The operator's session in the screen: the token from the PIN login, and `call`, which adds the
// token to every request and turns an "unauthorized" failure into a return to the login.
import { createContext, useCallback, useContext } from "react";
import type { OperatorBridge, OperatorMethod, OperatorRequest, OperatorResult } from "../../runtime/kiosk/bridge.ts";
import { toOperatorError } from "../bridge/operatorBridge.ts";

export interface OperatorSession {
  token: string;
  operator: string;
}

export interface OperatorContextValue {
  bridge: OperatorBridge;
  session: OperatorSession;
  /** The session ended (expired, logged out elsewhere): back to the login with a notice. */
  expire(): void;
}

export const OperatorContext = createContext<OperatorContextValue | null>(null);

type WithoutToken<M extends OperatorMethod> = Omit<OperatorRequest<M>, "token">;

export function useOperator(): OperatorContextValue & {
  call<M extends OperatorMethod>(method: M, request: WithoutToken<M>): Promise<OperatorResult<M>>;
} {
  const value = useContext(OperatorContext);
  if (!value) throw new Error("useOperator() outside the operator screen");
  const { bridge, session, expire } = value;
  const call = useCallback(
    async <M extends OperatorMethod>(method: M, request: WithoutToken<M>): Promise<OperatorResult<M>> => {
      const fn = bridge[method] as unknown as (r: OperatorRequest<M>) => Promise<OperatorResult<M>>;
      try {
        return await fn({ ...request, token: session.token } as OperatorRequest<M>);
      } catch (error) {
        const failure = toOperatorError(error);
        if (failure.code === "unauthorized") expire();
        throw failure;
      }
    },
    [bridge, session.token, expire],
  );
  return { ...value, call };
}
