/** Signals passed on to the job. */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const;
/** Signals a terminal sends to its whole foreground group: an interactive job gets them without us. */
const FROM_TERMINAL = new Set<NodeJS.Signals>(['SIGINT', 'SIGQUIT']);

export interface Supervision {
  /** The timeout fired: the job was sent SIGTERM, and SIGKILL after the grace. */
  readonly timedOut: boolean;
  /** Stops forwarding and the timers; a job that timed out is killed with all it started. */
  stop(): void;
}

/** Forwards this process's signals to the job (its whole group unless interactive), kills it after `timeoutMs`. */
export function superviseJob(
  pid: number | undefined,
  how: { interactive: boolean; timeoutMs: number; killGraceMs: number },
): Supervision {
  const send = (signal: NodeJS.Signals) => {
    if (pid === undefined) return;
    try {
      process.kill(how.interactive ? pid : -pid, signal);
    } catch {
      // Already gone.
    }
  };
  const forward = (signal: NodeJS.Signals) => {
    if (!(how.interactive && FROM_TERMINAL.has(signal))) send(signal);
  };
  for (const signal of FORWARDED) process.on(signal, forward);

  let timedOut = false;
  const timers: NodeJS.Timeout[] = [];
  if (how.timeoutMs > 0) {
    timers.push(
      setTimeout(() => {
        timedOut = true;
        send('SIGTERM');
        timers.push(setTimeout(() => send('SIGKILL'), how.killGraceMs));
      }, how.timeoutMs),
    );
  }
  return {
    get timedOut() {
      return timedOut;
    },
    stop() {
      for (const timer of timers) clearTimeout(timer);
      for (const signal of FORWARDED) process.off(signal, forward);
      if (timedOut) send('SIGKILL');
    },
  };
}
