import { htmlProblems, jsonBody, shownText, urlOf } from './common.js';
import type { VendorRequest } from './common.js';

/** sendMessage's text: 1 to 4,096 characters after entities parsing. */
const TELEGRAM_MAX_CHARS = 4_096;
/** Telegram's HTML style (core.telegram.org/bots/api#html-style). */
const HTML = {
  tags: {
    b: [],
    strong: [],
    i: [],
    em: [],
    u: [],
    ins: [],
    s: [],
    strike: [],
    del: [],
    span: ['class'],
    'tg-spoiler': [],
    a: ['href'],
    'tg-emoji': ['emoji-id'],
    code: ['class'],
    pre: [],
    blockquote: ['expandable'],
  },
  // pre and code entities cannot contain other entities, but code in pre (a language).
  leaves: { pre: ['code'], code: [] },
};

/** The Bot API's sendMessage: POST /bot<token>/sendMessage with JSON chat_id and text, parse_mode's markup sound. */
export function checkTelegram(req: VendorRequest): string[] {
  const problems: string[] = [];
  if (req.method !== 'POST') problems.push(`method ${req.method}, not POST`);
  const path = urlOf(req).pathname;
  if (!/^\/bot\d+:[A-Za-z0-9_-]+\/sendMessage$/.test(path)) problems.push(`path ${path} is no /bot<token>/sendMessage`);
  const body = jsonBody(req, problems);
  if (body === null) return problems;
  const chat = body.chat_id;
  const chatOk = Number.isSafeInteger(chat) || (typeof chat === 'string' && /^(-?\d+|@[A-Za-z]\w{3,31})$/.test(chat));
  if (!chatOk) problems.push(`chat_id ${JSON.stringify(chat)} is no chat id or @channelusername`);
  if (typeof body.text !== 'string') return [...problems, 'text is not a string'];
  if (![undefined, 'HTML', 'MarkdownV2', 'Markdown'].includes(body.parse_mode as string)) {
    problems.push(`parse_mode ${JSON.stringify(body.parse_mode)} is unknown`);
  }
  const html = body.parse_mode === 'HTML';
  if (html) problems.push(...htmlProblems(body.text, HTML));
  const shown = html ? shownText(body.text) : body.text;
  if (shown.trim() === '') problems.push('text is empty');
  if (shown.length > TELEGRAM_MAX_CHARS)
    problems.push(`text has ${shown.length} characters, over ${TELEGRAM_MAX_CHARS}`);
  const preview = body.link_preview_options;
  if (preview !== undefined && (typeof preview !== 'object' || preview === null)) {
    problems.push('link_preview_options is not an object');
  }
  if (body.disable_web_page_preview !== undefined && preview !== undefined) {
    problems.push('disable_web_page_preview and link_preview_options together');
  }
  return problems;
}
