// Colours only where a person reads them: stdout is a terminal and NO_COLOR is not set
// (https://no-color.org: any non-empty value turns colours off). FORCE_COLOR is not honoured on
// purpose: piped output stays plain for scripts.
import pc from "picocolors";

export type Colors = ReturnType<typeof pc.createColors>;

export function useColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  return Boolean(stream.isTTY) && !env.NO_COLOR;
}

export function colors(enabled: boolean): Colors {
  return pc.createColors(enabled);
}
