import type { ServerResponse } from 'node:http';
import type { Context } from 'koa';
import { AppError } from '../platform/errors.ts';

/** Options of the SSE hub. */
export interface SseHubOptions {
  /** Heartbeat period (API: keep-alive signal). Default 15 s. */
  heartbeatMs?: number;
  /** Reconnect delay suggested to clients with `retry:`. Default 3 s. */
  retryMs?: number;
  /**
   * A subscriber whose socket has not drained for this long is disconnected; until then it only
   * ever holds the frame being written plus the newest pending one. Default 60 s.
   */
  stuckAfterMs?: number;
  /**
   * Most simultaneous subscribers; one more gets a 503, so a runaway client cannot use up the
   * process's file descriptors (often 1,024). Default 512.
   */
  maxSubscribers?: number;
  now?: () => number;
}

interface Subscriber {
  res: ServerResponse;
  /** The newest frame not yet written because the socket was still draining. */
  pending: Buffer | null;
  blockedSince: number | null;
  /** Named events waiting for the socket to drain (bounded: a stuck client is dropped anyway). */
  events: Buffer[];
}

const MAX_PENDING_EVENTS = 50;

/**
 * One broadcaster for `GET /api/events/pipelines`. Frames are serialised once and the same Buffer is
 * written to every subscriber. A slow client never queues more than one frame: while its socket
 * drains, newer updates replace the pending one (it only needs the latest summary), so memory per
 * subscriber stays bounded; a client stuck beyond `stuckAfterMs` is dropped.
 */
export class SseHub {
  private readonly subscribers = new Set<Subscriber>();
  private readonly heartbeatMs: number;
  private readonly retryMs: number;
  private readonly stuckAfterMs: number;
  private readonly maxSubscribers: number;
  private readonly now: () => number;
  private readonly timer: NodeJS.Timeout;
  private latest: Buffer | null = null;
  private closed = false;

  constructor(options: SseHubOptions = {}) {
    this.heartbeatMs = options.heartbeatMs ?? 15_000;
    this.retryMs = options.retryMs ?? 3_000;
    this.stuckAfterMs = options.stuckAfterMs ?? 60_000;
    this.maxSubscribers = options.maxSubscribers ?? 512;
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => this.heartbeat(), this.heartbeatMs);
    // The heartbeat must not keep a finished process alive.
    this.timer.unref();
  }

  /** Number of connected subscribers. */
  get size(): number {
    return this.subscribers.size;
  }

  /** Bytes queued in subscribers' sockets and pending frames (diagnostics, benchmarks). */
  bufferedBytes(): number {
    let total = 0;
    for (const sub of this.subscribers)
      total += sub.res.writableLength + (sub.pending?.length ?? 0);
    return total;
  }

  /** Builds an SSE frame. `data` is already-serialised JSON (one line). */
  static frame(event: string, data: string): Buffer {
    return Buffer.from(`event: ${event}\ndata: ${data}\n\n`);
  }

  /**
   * Sends a `pipeline-update` with this pre-serialised summary, followed by a `pipeline-activity`
   * with the activity when given, to everyone, and to newcomers at once. Both travel as one frame,
   * so a slow client's single pending slot always holds a matching pair.
   */
  publish(summaryJson: string, activityJson?: string): void {
    const summary = SseHub.frame('pipeline-update', summaryJson);
    this.latest = activityJson
      ? Buffer.concat([summary, SseHub.frame('pipeline-activity', activityJson)])
      : summary;
    for (const sub of this.subscribers) this.write(sub, this.latest);
  }

  /**
   * Sends a named event (e.g. `pipeline-failed`) to everyone connected now; unlike the summary it is
   * not replayed to newcomers. A subscriber whose socket is draining gets it after the newest summary.
   */
  broadcast(event: string, dataJson: string): void {
    const frame = SseHub.frame(event, dataJson);
    for (const sub of this.subscribers) {
      if (sub.res.writableNeedDrain) {
        if (sub.events.length < MAX_PENDING_EVENTS) sub.events.push(frame);
      } else sub.res.write(frame);
    }
  }

  /** Takes over the Koa response and streams events until the client goes away; 503 past the cap. */
  subscribe(ctx: Context): void {
    if (this.closed) {
      throw new AppError('overloaded', 'The service is shutting down');
    }
    if (this.subscribers.size >= this.maxSubscribers) {
      throw new AppError(
        'overloaded',
        `Too many live-update connections (${this.maxSubscribers}); close other dashboard tabs or try again shortly`,
        { retryAfterMs: this.retryMs },
      );
    }
    ctx.respond = false;
    const res = ctx.res;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      ...(ctx.response.get('Access-Control-Allow-Origin')
        ? {
            'Access-Control-Allow-Origin': String(ctx.response.get('Access-Control-Allow-Origin')),
            Vary: 'Origin',
          }
        : {}),
    });
    ctx.req.socket.setNoDelay(true);
    ctx.req.socket.setKeepAlive(true);
    const sub: Subscriber = { res, pending: null, blockedSince: null, events: [] };
    this.subscribers.add(sub);
    res.write(`retry: ${this.retryMs}\n\n`);
    if (this.latest) this.write(sub, this.latest);
    res.on('close', () => this.subscribers.delete(sub));
    res.on('drain', () => {
      sub.blockedSince = null;
      const next = sub.pending;
      sub.pending = null;
      if (next) this.write(sub, next);
      for (const frame of sub.events.splice(0)) sub.res.write(frame);
    });
  }

  /** Ends every stream and stops the heartbeat (graceful shutdown). */
  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    for (const sub of this.subscribers) sub.res.end();
    this.subscribers.clear();
  }

  private heartbeat(): void {
    const frame = SseHub.frame(
      'heartbeat',
      JSON.stringify({ timestamp: new Date(this.now()).toISOString() }),
    );
    for (const sub of this.subscribers) this.write(sub, frame);
  }

  private write(sub: Subscriber, frame: Buffer): void {
    if (sub.res.writableNeedDrain) {
      sub.blockedSince ??= this.now();
      if (this.now() - sub.blockedSince > this.stuckAfterMs) {
        this.subscribers.delete(sub);
        sub.res.destroy();
        return;
      }
      // Keep only the newest summary; a heartbeat never displaces one.
      if (!sub.pending || frame === this.latest) sub.pending = frame;
      return;
    }
    sub.res.write(frame);
  }
}
