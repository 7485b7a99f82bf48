// A monitor's slug (DESIGN §16): its name in paths, crontabs and CLI arguments, accepted wherever its id is.

export const SLUG_MAX_CHARS = 64;

/** What a slug is: a-z, 0-9, - and _, never of the form of a monitor id (`mon_…`, isMonitorId). */
export const SLUG_PATTERN = /^(?!mon_)[a-z0-9_-]{1,64}$/;

/** What messages say a slug is. */
export const SLUG_RULE = '1 to 64 of a-z, 0-9, - and _, not beginning with mon_ (the form of a monitor id)';

const ID_PREFIX = 'mon_';

/** Whether `ref`, a monitor id or slug given by a user, has the form of an id: then it is read as one. */
export function isMonitorId(ref: string): boolean {
  return ref.startsWith(ID_PREFIX);
}

/** Whether `text` may be a monitor's slug. */
export function isSlug(text: string): boolean {
  return SLUG_PATTERN.test(text);
}

/**
 * A slug made from `text` (a monitor's name, a job's command): lower case, accents dropped, every run of other
 * characters one `-`, at most SLUG_MAX_CHARS; `monitor` when nothing is left.
 */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_]+/, '')
    .slice(0, SLUG_MAX_CHARS)
    .replace(/[-_]+$/, '');
  if (slug === '') return 'monitor';
  return isMonitorId(slug) ? `mon-${slug.slice(ID_PREFIX.length)}` : slug;
}

/** `slug` with the suffix `-n` (n ≥ 2), cut to stay within SLUG_MAX_CHARS: for a slug already taken. */
export function numberedSlug(slug: string, n: number): string {
  const suffix = `-${n}`;
  return slug.slice(0, SLUG_MAX_CHARS - suffix.length) + suffix;
}
