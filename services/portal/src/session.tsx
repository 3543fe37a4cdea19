import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from "react";
import { api, setCsrfToken, type Schemas } from "./api";

export type Session = Schemas["Session"];

interface SessionState {
  session: Session | null | undefined; // undefined: still asking
  setSession: (s: Session | null) => void;
  signOut: () => Promise<void>;
}

const Ctx = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, set] = useState<Session | null | undefined>(undefined);
  const setSession = useCallback((s: Session | null) => {
    setCsrfToken(s?.csrf_token ?? "");
    set(s);
  }, []);
  useEffect(() => {
    api.GET("/auth/session").then(
      ({ data }) => setSession(data ?? null),
      () => setSession(null),
    );
  }, [setSession]);
  const signOut = useCallback(async () => {
    await api.POST("/auth/logout");
    setSession(null);
  }, [setSession]);
  return <Ctx.Provider value={{ session, setSession, signOut }}>{children}</Ctx.Provider>;
}

export function useSession(): SessionState {
  const c = useContext(Ctx);
  if (!c) throw new Error("useSession outside SessionProvider");
  return c;
}
