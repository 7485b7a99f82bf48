import { Redactor } from '@pingmon/sdk';
import type { LogKeep } from './capture.js';
import { OutputCapture } from './capture.js';
import { LastLine, withLastLine } from './cause.js';
import { boundedMeta } from './meta.js';
import { createMetaFile } from './meta-file.js';
import { outcomeOf } from './outcome.js';
import type { ExitFacts, Outcome } from './outcome.js';
import { startReport } from './report.js';
import type { ReportTo } from './report.js';
import { spawnJob } from './spawn.js';
import type { Command } from './spawn.js';
import { warn } from './warn.js';

export interface Job extends Command {
  meta: Record<string, number>;
  logKeep: LogKeep;
  /** Where the run is reported; none when a setting is missing: the job runs all the same, unreported. */
  reportTo: ReportTo | undefined;
}

/** Which of the job's outputs a chunk comes from: 0 stdout, 1 stderr. */
type From = 0 | 1;

/**
 * Runs the job with its stdio passed through unchanged, reporting start and result to pingmon when it can.
 * The job's exit code always wins: pings that cannot be delivered only print a warning.
 */
export async function runJob(job: Job): Promise<number> {
  const report = job.reportTo && startReport(job.reportTo, warn);
  // The job gets its meta file even unreported: a job writing to "$PINGMON_META_FILE" must not fail for it.
  const metaFile = createMetaFile();
  const capture = report && new OutputCapture(job.logKeep);
  // The last line of stderr (else of stdout) says why a job failed, more often than not.
  const lastLines = [new LastLine(), new LastLine()] as const;
  // Secrets stay on the host: whatever takes the job's output for pingmon is a consumer of the redacted chunks.
  const consumers: Array<(chunk: Buffer, from: From) => void> = [
    (chunk) => capture?.add(chunk),
    (chunk) => report?.live?.add(chunk),
    (chunk, from) => lastLines[from].add(chunk),
  ];
  const redactor = job.reportTo && new Redactor(job.reportTo.redact);
  const redacted =
    redactor &&
    ([0, 1] as const).map((from) => redactor.stream((chunk) => consumers.forEach((consume) => consume(chunk, from))));
  const copies = redacted?.map((stream) => (chunk: Buffer) => stream.write(chunk));
  let exit: ExitFacts;
  let fileMeta: Record<string, number> = {};
  try {
    exit = await spawnJob(job, copies, metaFile ? { PINGMON_META_FILE: metaFile.path } : {});
  } finally {
    if (metaFile && report) fileMeta = metaFile.read();
    metaFile?.remove();
  }
  redacted?.forEach((stream) => stream.end());
  let outcome: Outcome = outcomeOf(job, exit);
  if (outcome.kind === 'not-started') process.stderr.write(`pingmon: ${outcome.failure}\n`);
  if (!report) return outcome.exitCode;

  const meta = boundedMeta({ ...job.meta, ...fileMeta }, warn);
  meta.exitCode = outcome.exitCode;
  if (outcome.kind === 'failed') {
    outcome = { ...outcome, failure: withLastLine(outcome.failure, lastLines[1].line() ?? lastLines[0].line()) };
  }
  await report.finish(outcome, capture?.text() ?? '', meta, redactor?.redactions ?? 0);
  return outcome.exitCode;
}
