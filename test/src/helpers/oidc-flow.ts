/** A response as the flow saw it: the body read, the redirect not followed. */
export interface FlowResponse {
  status: number;
  headers: Headers;
  location: string | null;
  setCookies: string[];
  body: string;
  url: string;
}

/**
 * Follows a sign-in from `startUrl` (a relying party's address that redirects to the provider) through the
 * provider's login and consent forms as `login`, with a cookie jar, and stops at the first response of a host
 * other than the provider's that is not a redirect back to the provider, i.e. the relying party's callback answer.
 */
export async function signInThroughProvider(startUrl: string, login: string): Promise<FlowResponse> {
  return drive(startUrl, login);
}

/** Follows `startUrl` to the provider's login page and returns that page (its form not filled). */
export async function reachProviderLogin(startUrl: string): Promise<FlowResponse> {
  return drive(startUrl, undefined);
}

/** With no `login`, stops at the login form. */
async function drive(startUrl: string, login: string | undefined): Promise<FlowResponse> {
  const jar = new CookieJar();
  const start = new URL(startUrl).host;
  let provider: string | undefined;
  let request: { url: string; method: string; body?: URLSearchParams } = { url: startUrl, method: 'GET' };
  let logins = 0;
  // A sign-in takes seven hops (start, authorize, login, resume, consent, resume, callback): 20 is room to spare.
  for (let hop = 0; hop < 20; hop++) {
    const response = await send(jar, request);
    const host = new URL(response.url).host;
    const next = response.location === null ? undefined : new URL(response.location, response.url);
    // The provider is where the relying party first sends the browser away to.
    if (next !== undefined && provider === undefined && next.host !== start) provider = next.host;
    if (host !== provider) {
      if (next !== undefined && next.host === provider) {
        request = { url: next.href, method: 'GET' };
        continue;
      }
      return response;
    }
    if (next !== undefined) {
      request = { url: next.href, method: 'GET' };
      continue;
    }
    const form = parseForm(response.body, response.url);
    if (response.status !== 200 || form === undefined) {
      throw new Error(`the provider answered ${response.status} at ${response.url}: ${response.body.slice(0, 2000)}`);
    }
    if (form.inputs.has('login')) {
      if (login === undefined) return response;
      // The dev login page comes back only if the first sign-in did not take: do not loop on it.
      if (++logins > 1) throw new Error(`the provider asked for a login again after "${login}": ${response.url}`);
      Object.assign(form.fields, { login, password: 'any password' });
    }
    request = { url: form.action, method: form.method, body: new URLSearchParams(form.fields) };
  }
  throw new Error(`no answer of the relying party after 20 hops from ${startUrl}`);
}

async function send(jar: CookieJar, request: { url: string; method: string; body?: URLSearchParams }) {
  const cookie = jar.header(request.url);
  const response = await fetch(request.url, {
    method: request.method,
    body: request.body,
    headers: cookie ? { cookie } : {},
    redirect: 'manual',
  });
  const setCookies = response.headers.getSetCookie();
  jar.store(request.url, setCookies);
  const isRedirect = response.status >= 300 && response.status < 400;
  return {
    status: response.status,
    headers: response.headers,
    location: isRedirect ? response.headers.get('location') : null,
    setCookies,
    body: await response.text(),
    url: request.url,
  };
}

/** Cookies by host:port, then by name and path; a path is matched as a prefix, and expired cookies are dropped. */
class CookieJar {
  private readonly hosts = new Map<string, Map<string, { name: string; value: string; path: string }>>();

  store(url: string, setCookies: string[]) {
    const { host } = new URL(url);
    let cookies = this.hosts.get(host);
    if (cookies === undefined) this.hosts.set(host, (cookies = new Map()));
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const attribute = (key: string) =>
        attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
      const path = attribute('path') ?? '/';
      const maxAge = attribute('max-age');
      const expires = attribute('expires');
      const expired =
        (maxAge !== undefined && Number(maxAge) <= 0) || (expires !== undefined && Date.parse(expires) <= Date.now());
      if (expired) cookies.delete(`${name};${path}`);
      else cookies.set(`${name};${path}`, { name, value, path });
    }
  }

  header(url: string): string {
    const { host, pathname } = new URL(url);
    const cookies = [...(this.hosts.get(host)?.values() ?? [])];
    return cookies
      .filter((c) => pathname === c.path || pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }
}

/** The first form of a page: its action (absolute), method, the names of its inputs and the values given. */
function parseForm(html: string, pageUrl: string) {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (form === null) return undefined;
  const attributes = (tag: string) => {
    const found: Record<string, string> = {};
    for (const [, key, value] of tag.matchAll(/([\w-]+)\s*=\s*"([^"]*)"/g)) found[key.toLowerCase()] = unescape(value);
    return found;
  };
  const { action = pageUrl, method = 'GET' } = attributes(form[1]);
  const inputs = new Set<string>();
  const fields: Record<string, string> = {};
  for (const [, tag] of form[2].matchAll(/<input\b([^>]*)>/gi)) {
    const input = attributes(tag);
    if (input.name !== undefined) inputs.add(input.name);
    if (input.name !== undefined && input.value !== undefined) fields[input.name] = input.value;
  }
  return { action: new URL(action, pageUrl).href, method: method.toUpperCase(), inputs, fields };
}

/** The escapes of the provider's templates (eta: & < > " '). */
function unescape(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" };
  return text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_, entity: string) => named[entity]);
}
