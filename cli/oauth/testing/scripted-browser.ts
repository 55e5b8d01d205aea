/**
 * A scripted user agent for the test provider's login, consent and device pages: follows
 * redirects, keeps cookies, and submits each page's form (filling any login/password), like a user
 * clicking "Continue" every time. `deny` clicks the login page's cancel link instead.
 */

/** The last page the agent ended on. */
export interface PageVisit {
  url: string;
  status: number;
  body: string;
}

interface Cookie {
  name: string;
  value: string;
  path: string;
}

/** A browser stand-in with a cookie jar; one instance is one browser profile. */
export class ScriptedBrowser {
  private readonly jar = new Map<string, Cookie[]>();
  /** Every URL requested, in order. */
  readonly visited: string[] = [];

  /** Opens `url` and keeps going (redirects, forms) until a page without a form; returns it. */
  async signIn(
    url: string,
    options: { deny?: boolean; maxSteps?: number } = {},
  ): Promise<PageVisit> {
    let request: { url: string; method: string; body?: URLSearchParams } = { url, method: 'GET' };
    for (let step = 0; step < (options.maxSteps ?? 20); step++) {
      const res = await this.fetch(request.url, request.method, request.body);
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        request = { url: new URL(location, request.url).href, method: 'GET' };
        continue;
      }
      const body = await res.text();
      if (options.deny) {
        const abort = /href="([^"]*\/abort)"/.exec(body);
        if (abort) {
          request = { url: new URL(decode(abort[1]!), request.url).href, method: 'GET' };
          continue;
        }
      }
      const form = firstForm(body);
      if (!form || res.status >= 400) return { url: request.url, status: res.status, body };
      request = {
        url: new URL(form.action || request.url, request.url).href,
        method: form.method,
        body: form.fields,
      };
    }
    throw new Error(`sign-in did not finish within ${options.maxSteps ?? 20} steps`);
  }

  /** One request with the jar's cookies; stores the cookies the answer sets. */
  async fetch(url: string, method = 'GET', body?: URLSearchParams): Promise<Response> {
    this.visited.push(url);
    const target = new URL(url);
    const headers: Record<string, string> = {};
    const cookies = (this.jar.get(target.host) ?? []).filter((c) =>
      target.pathname.startsWith(c.path),
    );
    if (cookies.length) headers.cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    if (body) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(url, { method, headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) this.store(target, line);
    return res;
  }

  private store(target: URL, line: string): void {
    const [pair, ...attrs] = line.split(';').map((s) => s.trim());
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq);
    const value = pair!.slice(eq + 1);
    let path = '/';
    let expired = false;
    for (const attr of attrs) {
      const [k, v] = attr.split('=');
      if (k?.toLowerCase() === 'path' && v) path = v;
      if (k?.toLowerCase() === 'expires' && v && Date.parse(v) < Date.now()) expired = true;
      if (k?.toLowerCase() === 'max-age' && Number(v) <= 0) expired = true;
    }
    const list = (this.jar.get(target.host) ?? []).filter(
      (c) => !(c.name === name && c.path === path),
    );
    if (!expired) list.push({ name, value, path });
    this.jar.set(target.host, list);
  }
}

function firstForm(
  html: string,
): { action: string; method: string; fields: URLSearchParams } | undefined {
  const match = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (!match) return undefined;
  const attrs = match[1]!;
  const fields = new URLSearchParams();
  for (const input of match[2]!.matchAll(/<input\b([^>]*)>/gi)) {
    const name = attr(input[1]!, 'name');
    if (!name) continue;
    const type = (attr(input[1]!, 'type') ?? 'text').toLowerCase();
    const value = attr(input[1]!, 'value');
    if (type === 'password') fields.set(name, 'any-password');
    else if (name === 'login') fields.set(name, value || 'alice');
    else fields.set(name, value ?? '');
  }
  return {
    action: decode(attr(attrs, 'action') ?? ''),
    method: (attr(attrs, 'method') ?? 'get').toUpperCase(),
    fields,
  };
}

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\b${name}="([^"]*)"`, 'i').exec(tag);
  return m ? decode(m[1]!) : undefined;
}

function decode(s: string): string {
  return s
    .replace(/&amp;/g, '&')
    .replace(/&#x2F;/gi, '/')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}
