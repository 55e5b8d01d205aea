import type { GitLabSimulator } from '../index.ts';

/** A simulator response, read whole. */
export interface SimResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON, or undefined when the body is not JSON. */
  body: unknown;
}

/** GETs `path` (relative to /api/v4 unless it starts with `/uploads` or `http`) with the sim's token. */
export async function simGet(
  sim: GitLabSimulator,
  path: string,
  init: { token?: string | null; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<SimResponse> {
  const url = path.startsWith('http')
    ? path
    : path.startsWith('/uploads')
      ? `${sim.url}${path}`
      : `${sim.url}/api/v4${path}`;
  const headers: Record<string, string> = { ...init.headers };
  const token = init.token === undefined ? sim.token : init.token;
  if (token !== null) headers['private-token'] = token;
  const res = await fetch(url, { headers, signal: init.signal });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

/** GETs JSON and fails loudly on a non-200. */
export async function simJson<T>(sim: GitLabSimulator, path: string): Promise<T> {
  const res = await simGet(sim, path);
  if (res.status !== 200) throw new Error(`GET ${path} → ${res.status}: ${res.text.slice(0, 200)}`);
  return res.body as T;
}

/** Follows `Link: rel="next"` from `path` and returns every item plus the responses' headers. */
export async function simAllPages<T>(
  sim: GitLabSimulator,
  path: string,
): Promise<{ items: T[]; pages: Headers[] }> {
  const items: T[] = [];
  const pages: Headers[] = [];
  let next: string | null = `${sim.url}/api/v4${path}`;
  while (next) {
    const res = await simGet(sim, next);
    if (res.status !== 200) throw new Error(`GET ${next} → ${res.status}`);
    items.push(...(res.body as T[]));
    pages.push(res.headers);
    next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1] ?? null;
    if (pages.length > 1000) throw new Error('runaway pagination');
  }
  return { items, pages };
}
