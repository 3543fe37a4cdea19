import { useCallback, useEffect, useState } from "react";
import { ApiFailure } from "./api";

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Runs a loader on mount (and when deps change); the page shows loading, error and empty states. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => live && setState({ error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/**
 * A form's submission: clears the previous errors, runs `f`, and puts the API's field errors
 * (VALIDATION_FAILED's `details.errors`) on `fields` and any other failure on `error`.
 * `run` resolves to whether `f` succeeded.
 */
export function useSubmit() {
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (f: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setFields({});
    setError(null);
    try {
      await f();
      return true;
    } catch (err) {
      if (err instanceof ApiFailure && err.body.details?.errors?.length) setFields(err.fieldErrors());
      else setError(err);
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { fields, error, busy, run, setFields };
}

/** An action on a listed item (toggle, delete, …): its failure on `error`, the list reloaded after it. */
export function useAction(reload: () => void) {
  const [error, setError] = useState<unknown>(null);
  const act = useCallback(
    async (f: () => Promise<unknown>) => {
      setError(null);
      try {
        await f();
        reload();
      } catch (err) {
        setError(err);
      }
    },
    [reload],
  );
  return { error, act };
}

/** The field errors of an array field (`scopes[0]`, `redirect_uris[1]`, …) as one message. */
export function fieldsUnder(fields: Record<string, string>, prefix: string, named = false): string | undefined {
  const msgs = Object.entries(fields)
    .filter(([f]) => f.startsWith(prefix))
    .map(([f, m]) => (named ? `${f}: ${m}` : m));
  return msgs.length ? msgs.join("; ") : undefined;
}

/**
 * Cursor pagination: `cursor` is the page shown (undefined: the first), `go` shows another;
 * the hook remembers the cursors of the pages before it so "Previous" walks back.
 */
export function useCursorPages(cursor: string | undefined, go: (cursor: string | undefined) => void) {
  const [before, setBefore] = useState<(string | undefined)[]>([]);
  return {
    hasPrevious: before.length > 0,
    previous: () => {
      const rest = [...before];
      const back = rest.pop();
      setBefore(rest);
      go(back || undefined);
    },
    next: (nextCursor: string | null | undefined) => {
      setBefore([...before, cursor]);
      go(nextCursor ?? undefined);
    },
    reset: () => setBefore([]),
  };
}
