import fs from 'node:fs';

/**
 * Where a bench window's CPU went, from Linux's /proc (issue 19's diagnosis): how busy the machine's cores were,
 * and the CPU time of this process, of PostgreSQL's processes and of the processes whose command line contains
 * a given text. Elsewhere (no /proc) it measures nothing and says so.
 */
export type CpuWindow = {
  /** Ends the window: the share of the machine's cores busy, and each part's CPU time in milliseconds. */
  end(): { machineBusy: number; self: number; postgres: number; other: number } | null;
};

/** Clock ticks a second of /proc's CPU times (USER_HZ: 100 on every Linux Node.js runs on). */
const TICKS_PER_SECOND = 100;

function machineTicks(): { idle: number; total: number } {
  const fields = (fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] as string)
    .trim()
    .split(/\s+/)
    .slice(1);
  const ticks = fields.map(Number);
  return { idle: (ticks[3] ?? 0) + (ticks[4] ?? 0), total: ticks.reduce((sum, value) => sum + value, 0) };
}

/** The user and system ticks of the processes whose command line `matches`. */
function processTicks(matches: (commandLine: string) => boolean): number {
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (!matches(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'))) continue;
      // The fields after the command's name, which may itself hold spaces: utime and stime are the 12th and 13th.
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks;
}

/** Starts a window; `other` picks the other processes to count by their command line. */
export function startCpuWindow(other: string): CpuWindow {
  if (!fs.existsSync('/proc/stat')) return { end: () => null };
  const isPostgres = (commandLine: string) => commandLine.startsWith('postgres');
  const isOther = (commandLine: string) => commandLine.includes(other);
  const machine = machineTicks();
  const postgres = processTicks(isPostgres);
  const others = processTicks(isOther);
  const self = process.cpuUsage();
  return {
    end() {
      const used = process.cpuUsage(self);
      const now = machineTicks();
      const toMilliseconds = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;
      return {
        machineBusy: 1 - (now.idle - machine.idle) / Math.max(1, now.total - machine.total),
        self: (used.user + used.system) / 1000,
        postgres: toMilliseconds(processTicks(isPostgres) - postgres),
        other: toMilliseconds(processTicks(isOther) - others),
      };
    },
  };
}
