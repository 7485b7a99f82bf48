// The words of a crontab command as /bin/sh reads them: enough to find the program a job runs and the flags of a
// line already wrapped by `pingmon run`, with where each word lies in the text (to edit a flag in place).

export interface Token {
  kind: 'word' | 'operator';
  /** A word without its quotes and escapes; an operator as written (`&&`, `2>&1` is `2>&` then `1`). */
  value: string;
  start: number;
  end: number;
}

const OPERATORS = ['&&', '||', ';;', '>>', '>&', '<&', '<<', '&>', '>|', '|', '&', ';', '<', '>', '(', ')'];

/**
 * The tokens of `text`. `\%` is `%` everywhere, as cron has turned it before the shell reads the line; `$(…)` and
 * backquotes stay inside their word. A `#` starting a word ends the command, as in the shell.
 */
export function shellTokens(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n') {
      i++;
    } else if (c === '#') {
      break;
    } else {
      const operator = operatorAt(text, i);
      const token = operator
        ? { kind: 'operator' as const, value: operator, start: i, end: i + operator.length }
        : wordAt(text, i);
      tokens.push(token);
      i = token.end;
    }
  }
  return tokens;
}

function operatorAt(text: string, i: number): string | undefined {
  // A redirection's file descriptor belongs to it: `2>` is one operator.
  const fd = /^\d+(?=[<>])/.exec(text.slice(i))?.[0] ?? '';
  const rest = text.slice(i + fd.length);
  const operator = OPERATORS.find((op) => rest.startsWith(op));
  if (!operator || (fd && !/^[<>]/.test(operator))) return undefined;
  return fd + operator;
}

function wordAt(text: string, start: number): Token {
  let value = '';
  let i = start;
  while (i < text.length) {
    const c = text[i]!;
    if (/[ \t\n]/.test(c) || operatorAt(text, i)) break;
    if (c === '\\') {
      value += text[i + 1] ?? '';
      i += 2;
    } else if (c === "'") {
      const close = closing(text, i + 1, "'");
      value += text.slice(i + 1, close).replaceAll('\\%', '%');
      i = close + 1;
    } else if (c === '"') {
      const [inner, close] = doubleQuoted(text, i + 1);
      value += inner;
      i = close + 1;
    } else if (c === '$' && text[i + 1] === '(') {
      const close = matchingParen(text, i + 2);
      value += text.slice(i, close + 1);
      i = close + 1;
    } else if (c === '`') {
      const close = closing(text, i + 1, '`');
      value += text.slice(i, close + 1);
      i = close + 1;
    } else {
      value += c;
      i++;
    }
  }
  return { kind: 'word', value, start, end: Math.min(i, text.length) };
}

/** The index of the next `quote` from `from`, or the end of the text when it is never closed. */
function closing(text: string, from: number, quote: string): number {
  const at = text.indexOf(quote, from);
  return at === -1 ? text.length : at;
}

function doubleQuoted(text: string, from: number): [string, number] {
  let value = '';
  let i = from;
  while (i < text.length && text[i] !== '"') {
    if (text[i] === '\\' && /["\\$`%\n]/.test(text[i + 1] ?? '')) {
      value += text[i + 1];
      i += 2;
    } else {
      value += text[i];
      i++;
    }
  }
  return [value, i];
}

function matchingParen(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    if (text[i] === '(') depth++;
    if (text[i] === ')' && --depth === 0) return i;
  }
  return text.length;
}

/** `value` as one shell word: bare when that is safe, else in single quotes. */
export function shellQuote(value: string): string {
  if (/^[A-Za-z0-9_./,:@+=-]+$/.test(value)) return value;
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** A word of ours in a crontab line: quoted for the shell, and a `%` escaped so that cron does not cut the line. */
export function crontabWord(value: string): string {
  return shellQuote(value).replaceAll('%', '\\%');
}
