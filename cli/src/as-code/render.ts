import { formatRule } from '@pingmon/sdk/wire';
import { plural } from '../output.js';
import type { FieldChange, Plan } from './plan.js';

// The plan as `pingmon apply` prints it (docs/cli.md#pingmon-apply): one line per monitor and changed channel.

export function planLines(plan: Plan): string[] {
  const lines: string[] = [];
  const line = (mark: string, word: string, text: string) => lines.push(`${mark} ${word.padEnd(9)} ${text}`);
  for (const step of plan.monitors) {
    if (step.action === 'create') line('+', 'create', step.slug);
    if (step.action === 'update') {
      const rules = [
        ...step.addRules.map((r) => `+ ${formatRule(r)}`),
        ...step.removeRules.map((r) => `- ${formatRule(r)}`),
      ];
      const parts = [...step.fields.map(fieldText), ...(rules.length > 0 ? [`rules ${rules.join(', ')}`] : [])];
      line('~', 'update', `${step.slug}: ${parts.join('; ')}`);
    }
  }
  for (const step of plan.channels)
    if (step.action === 'update') line('~', 'channel', `${step.name}: ${step.fields.map(fieldText).join('; ')}`);
  for (const step of plan.monitors) {
    if (step.action === 'delete') line('-', 'delete', `${step.slug} (with its runs and logs)`);
    if (step.action === 'unchanged') line('=', 'unchanged', step.slug);
    if (step.action === 'keep') line('?', 'kept', `${step.slug} (not in the file; --prune deletes it)`);
  }
  return lines;
}

function fieldText(change: FieldChange): string {
  return `${change.field} ${change.from} → ${change.to}`;
}

/** "1 created, 2 updated, 1 channel changed": what the plan changes, or '' when nothing. */
export function planSummary(plan: Plan): string {
  const count = (action: string) => plan.monitors.filter((s) => s.action === action).length;
  const channels = plan.channels.filter((s) => s.action === 'update').length;
  return [
    count('create') > 0 ? `${count('create')} created` : '',
    count('update') > 0 ? `${count('update')} updated` : '',
    count('delete') > 0 ? `${count('delete')} deleted` : '',
    channels > 0 ? `${plural(channels, 'channel')} changed` : '',
  ]
    .filter(Boolean)
    .join(', ');
}
