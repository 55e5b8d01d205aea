/** A fault injected into the simulator's responses (tests of retries, timeouts, parsing). */
export type Fault =
  | {
      kind: 'status';
      status: 429 | 500 | 502 | 503;
      /** Sent as `Retry-After` (seconds) when given. */
      retryAfterSec?: number;
      times?: number;
      match?: RegExp;
    }
  | { kind: 'delay'; ms: number; times?: number; match?: RegExp }
  | { kind: 'truncate'; times?: number; match?: RegExp }
  | { kind: 'reset'; times?: number; match?: RegExp }
  | {
      /**
       * Hostile upstream: edits a JSON answer before it is sent (wrong types, `javascript:` URLs,
       * endless `x-next-page` chains). Not terminal: every matching rewrite applies, in order.
       */
      kind: 'rewrite';
      rewrite: (reply: RewritableReply) => void;
      times?: number;
      match?: RegExp;
    };

/**
 * GitLab whose `/api/graphql` answers 404: older instances let admins switch GraphQL off with a
 * feature flag (https://gitlab.com/gitlab-org/gitlab-foss/-/issues/59965) and proxies may block it;
 * the service must fall back to REST.
 */
export function graphqlSwitchedOff(): Fault {
  return {
    kind: 'rewrite',
    match: /\/api\/graphql/,
    rewrite: (reply) => {
      reply.status = 404;
      reply.body = { message: '404 Not Found' };
    },
  };
}

/**
 * A proxy in front of GitLab that lets only GET through to `/api/graphql` (GitLab itself routes
 * POST there): every GraphQL query is a 405, and REST still works.
 */
export function graphqlMethodNotAllowed(): Fault {
  return {
    kind: 'rewrite',
    match: /\/api\/graphql/,
    rewrite: (reply) => {
      reply.status = 405;
      reply.body = { message: '405 Method Not Allowed' };
    },
  };
}

/**
 * A read-only GitLab (a Geo secondary, maintenance mode) from before GraphQL queries were
 * allow-listed: gitlabhq lib/gitlab/middleware/read_only/controller.rb refuses every POST with a
 * JSON 403 "You cannot perform write operations on a read-only instance"; REST reads still work.
 */
export function graphqlReadOnly(): Fault {
  return {
    kind: 'rewrite',
    match: /\/api\/graphql/,
    rewrite: (reply) => {
      reply.status = 403;
      reply.body = { message: 'You cannot perform write operations on a read-only instance' };
    },
  };
}

/** A JSON answer a `rewrite` fault may change in place. */
export interface RewritableReply {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** Path and query of the request. */
  url: string;
}

/** A fault once added: how often it fired, and a way to take it back. */
export interface FaultHandle {
  readonly fault: Fault;
  /** Requests it has applied to so far. */
  readonly hits: number;
  remove(): void;
}

/** Switches faults on and off; `times` omitted = until cleared. */
export interface FaultController {
  /** Adds a fault; it applies to requests whose path+query matches `match` (all when omitted). */
  add(fault: Fault): FaultHandle;
  /** Removes every fault. */
  clear(): void;
  /** Faults still in force. */
  readonly active: readonly Fault[];
}

/** What the faults decide for one request. */
export interface FaultDecision {
  delayMs: number;
  terminal: Exclude<Fault, { kind: 'delay' } | { kind: 'rewrite' }> | null;
  rewrites: Extract<Fault, { kind: 'rewrite' }>[];
}

interface Entry {
  fault: Fault;
  remaining: number;
  hits: number;
}

/** The simulator's fault list. Delays add up; the first matching non-delay fault wins. */
export class Faults implements FaultController {
  private entries: Entry[] = [];

  add(fault: Fault): FaultHandle {
    const entry: Entry = { fault, remaining: fault.times ?? Infinity, hits: 0 };
    this.entries.push(entry);
    return {
      fault,
      get hits() {
        return entry.hits;
      },
      remove: () => {
        this.entries = this.entries.filter((e) => e !== entry);
      },
    };
  }

  clear(): void {
    this.entries = [];
  }

  get active(): readonly Fault[] {
    return this.entries.map((e) => e.fault);
  }

  /** Consumes the faults that apply to a request for `pathAndQuery`. */
  decide(pathAndQuery: string): FaultDecision {
    const decision: FaultDecision = { delayMs: 0, terminal: null, rewrites: [] };
    for (const entry of this.entries) {
      const { fault } = entry;
      if (fault.match) {
        fault.match.lastIndex = 0;
        if (!fault.match.test(pathAndQuery)) continue;
      }
      if (fault.kind === 'delay') {
        decision.delayMs += fault.ms;
      } else if (fault.kind === 'rewrite') {
        decision.rewrites.push(fault);
      } else if (decision.terminal === null) {
        decision.terminal = fault;
      } else continue;
      entry.hits++;
      entry.remaining--;
    }
    this.entries = this.entries.filter((e) => e.remaining > 0);
    return decision;
  }
}
