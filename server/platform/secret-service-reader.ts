/**
 * Reads one secret from the Linux Secret Service (gnome-keyring, KWallet, KeePassXC) over the
 * D-Bus session bus, in plain JavaScript: for get-token's cached path, where loading
 * @napi-rs/keyring's 3 MB addon and the ESM command cost more than the rest of the run
 * (bench/token.bench.ts).
 *
 * It reads what @napi-rs/keyring (keyring-rs' Secret Service store) writes — an item whose
 * attributes are `service` and `username` — with OpenSession, SearchItems and Item.GetSecret
 * (https://specifications.freedesktop.org/secret-service-spec/latest/). The session is the
 * spec's `plain` algorithm, as libsecret falls back to: the secret crosses only the user's own
 * session-bus socket, whose other ends — the bus daemon and any bus monitor — run as the same user,
 * who can ask the Secret Service for it directly; the `dh-ietf1024…` exchange keyring-rs uses
 * would cost this path more than it saves (node:crypto's load plus two 1024-bit exponentiations).
 * Where and how the secret is stored does not change. It only reads: writes, locked items (a
 * prompt), several matches and anything unexpected answer undefined, and the caller asks the
 * keyring addon. The wire format is the D-Bus specification's
 * (https://dbus.freedesktop.org/doc/dbus-specification.html#message-protocol), little-endian, for
 * the few types these calls use. Imports nothing (Node built-ins through getBuiltinModule).
 */

/** The Secret Service's well-known bus name and object, and its interfaces. */
const SECRETS = 'org.freedesktop.secrets';
const SECRETS_PATH = '/org/freedesktop/secrets';
const SERVICE = 'org.freedesktop.Secret.Service';
const ITEM = 'org.freedesktop.Secret.Item';
const BUS = 'org.freedesktop.DBus';

/** Where the session bus listens, from DBUS_SESSION_BUS_ADDRESS or $XDG_RUNTIME_DIR/bus. */
export function sessionBusPath(env: NodeJS.ProcessEnv): string | undefined {
  const address = env.DBUS_SESSION_BUS_ADDRESS;
  if (!address) return env.XDG_RUNTIME_DIR ? `${env.XDG_RUNTIME_DIR}/bus` : undefined;
  for (const entry of address.split(';')) {
    if (!entry.startsWith('unix:')) continue;
    const params = new Map(
      entry
        .slice(5)
        .split(',')
        .map((kv) => {
          const eq = kv.indexOf('=');
          return [kv.slice(0, eq), decodeURIComponent(kv.slice(eq + 1))] as const;
        }),
    );
    if (params.get('path')) return params.get('path');
    // Linux abstract sockets: Node takes them with a leading NUL.
    if (params.get('abstract')) return `\0${params.get('abstract')}`;
  }
  return undefined;
}

/** A read under way: its answer, and a way to drop it when the answer is no longer wanted. */
export interface SecretServiceRead {
  result: Promise<string | undefined>;
  cancel(): void;
}

/**
 * Starts reading the secret of the one unlocked item with these attributes. The answer is
 * undefined when there is none, it is locked, there are several, or anything goes wrong.
 */
export function startSecretServiceRead(
  busPath: string,
  attributes: Record<string, string>,
  timeoutMs = 2000,
): SecretServiceRead {
  const net = process.getBuiltinModule('node:net');
  const socket = net.createConnection(busPath);
  let finish: (value: string | undefined) => void = () => undefined;
  const result = new Promise<string | undefined>((resolve) => {
    finish = (value) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
  });
  const timer = setTimeout(() => finish(undefined), timeoutMs);
  socket.on('error', () => finish(undefined));

  // Everything that needs no answer goes in one write: authentication pipelined with the calls,
  // as sd-bus does (a bus that refuses EXTERNAL closes the connection); Hello first, as the bus
  // requires; then the session and the search, which need nothing from each other.
  const uid = Buffer.from(String(process.getuid?.() ?? 0)).toString('hex');
  let serial = 0;
  const message = (path: string, iface: string, member: string, sig: string, body?: Writer) =>
    encodeCall(++serial, path, iface, member, sig, body);
  socket.write(
    Buffer.concat([
      Buffer.from(`\0AUTH EXTERNAL ${uid}\r\nBEGIN\r\n`),
      message('/org/freedesktop/DBus', BUS, 'Hello', ''),
      message(
        SECRETS_PATH,
        SERVICE,
        'OpenSession',
        'sv',
        new Writer().string('plain').variantString(''),
      ),
      message(SECRETS_PATH, SERVICE, 'SearchItems', 'a{ss}', new Writer().dict(attributes)),
    ]),
  );
  const [, OPEN, SEARCH, GET] = [1, 2, 3, 4];
  let session: string | undefined;
  let item: string | undefined;
  let buffer: Buffer = Buffer.alloc(0);
  let authed = false;
  socket.on('data', (chunk: Buffer) => {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    if (!authed) {
      const end = buffer.indexOf('\r\n');
      if (end < 0) return;
      if (!buffer.subarray(0, end).toString('latin1').startsWith('OK ')) return finish(undefined);
      authed = true;
      buffer = buffer.subarray(end + 2);
    }
    for (;;) {
      const reply = decodeMessage(buffer);
      if (!reply) return;
      buffer = buffer.subarray(reply.size);
      if (reply.replySerial === undefined) continue; // a signal (NameAcquired)
      if (reply.error && reply.replySerial > 1) return finish(undefined);
      if (reply.replySerial === OPEN) session = reply.body[1] as string;
      if (reply.replySerial === SEARCH) {
        const [unlocked, locked] = reply.body as [string[], string[]];
        if (unlocked.length !== 1 || locked.length > 0) return finish(undefined);
        item = unlocked[0];
      }
      if (reply.replySerial === GET) {
        const [[, , value]] = reply.body as [[string, Buffer, Buffer, string]];
        return finish(value.toString('utf8'));
      }
      if (session && item && serial === SEARCH) {
        socket.write(message(item, ITEM, 'GetSecret', 'o', new Writer().string(session)));
      }
    }
  });
  return { result, cancel: () => finish(undefined) };
}

/** Reads the secret in one go (see `startSecretServiceRead`). */
export function readSecretServiceSecret(
  busPath: string,
  attributes: Record<string, string>,
): Promise<string | undefined> {
  return startSecretServiceRead(busPath, attributes).result;
}

/** A decoded message: what it answers, whether it is an error, and its body values. */
interface Message {
  size: number;
  replySerial: number | undefined;
  error: boolean;
  body: unknown[];
}

function encodeCall(
  serial: number,
  path: string,
  iface: string,
  member: string,
  signature: string,
  body?: Writer,
): Buffer {
  const fields = new Writer();
  const field = (code: number, type: 's' | 'o' | 'g', value: string) => {
    fields.align(8).byte(code).signature(type);
    if (type === 'g') fields.signature(value);
    else fields.string(value);
  };
  field(1, 'o', path);
  field(2, 's', iface);
  field(3, 's', member);
  field(6, 's', iface === BUS ? BUS : SECRETS);
  if (signature) field(8, 'g', signature);
  const bodyBytes = body?.done() ?? Buffer.alloc(0);
  const head = new Writer()
    .byte(0x6c) // 'l': little-endian
    .byte(1) // METHOD_CALL
    .byte(0)
    .byte(1)
    .uint32(bodyBytes.length)
    .uint32(serial)
    .uint32(fields.length)
    .raw(fields.done())
    .align(8);
  return Buffer.concat([head.done(), bodyBytes]);
}

/** Little-endian D-Bus marshalling of the types the calls above send, into one buffer. */
class Writer {
  private buf = Buffer.alloc(256);
  length = 0;
  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const bigger = Buffer.alloc(Math.max(this.buf.length * 2, this.length + n));
    this.buf.copy(bigger, 0, 0, this.length);
    this.buf = bigger;
  }
  raw(bytes: Uint8Array): this {
    this.room(bytes.length);
    this.buf.set(bytes, this.length);
    this.length += bytes.length;
    return this;
  }
  align(n: number): this {
    const pad = (n - (this.length % n)) % n;
    this.room(pad);
    this.buf.fill(0, this.length, this.length + pad);
    this.length += pad;
    return this;
  }
  byte(value: number): this {
    this.room(1);
    this.buf[this.length++] = value;
    return this;
  }
  uint32(value: number): this {
    this.align(4).room(4);
    this.buf.writeUInt32LE(value, this.length);
    this.length += 4;
    return this;
  }
  string(value: string): this {
    const bytes = Buffer.from(value, 'utf8');
    return this.uint32(bytes.length).raw(bytes).byte(0);
  }
  signature(value: string): this {
    return this.byte(value.length).raw(Buffer.from(value, 'latin1')).byte(0);
  }
  variantString(value: string): this {
    return this.signature('s').string(value);
  }
  /** a{ss}: the length, padding to the first 8-aligned entry (not counted), the entries. */
  dict(entries: Record<string, string>): this {
    this.uint32(0);
    const lengthAt = this.length - 4;
    this.align(8);
    const start = this.length;
    for (const [key, value] of Object.entries(entries)) this.align(8).string(key).string(value);
    this.buf.writeUInt32LE(this.length - start, lengthAt);
    return this;
  }
  done(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}

/** One whole message from the front of `buffer`, or undefined while it is still arriving. */
function decodeMessage(buffer: Buffer): Message | undefined {
  if (buffer.length < 16 || buffer[0] !== 0x6c) return undefined;
  const bodyLength = buffer.readUInt32LE(4);
  const fieldsLength = buffer.readUInt32LE(12);
  const bodyStart = 16 + fieldsLength + ((8 - ((16 + fieldsLength) % 8)) % 8);
  const size = bodyStart + bodyLength;
  if (buffer.length < size) return undefined;
  const fields = new Reader(buffer.subarray(0, bodyStart), 12).read('a(yv)') as [number, unknown][];
  const fieldOf = (code: number) => fields.find(([c]) => c === code)?.[1];
  const signature = (fieldOf(8) as [string, string] | undefined)?.[1] ?? '';
  const replySerial = (fieldOf(5) as [string, number] | undefined)?.[1];
  const reader = new Reader(buffer.subarray(bodyStart, size), 0);
  const body: unknown[] = [];
  for (const type of splitSignature(signature)) body.push(reader.read(type));
  return { size, replySerial, error: buffer[1] === 3, body };
}

/** Little-endian D-Bus unmarshalling; variants come back as [signature, value]. */
class Reader {
  constructor(
    private readonly buf: Buffer,
    private pos: number,
  ) {}
  private align(n: number): void {
    this.pos += (n - (this.pos % n)) % n;
  }
  read(type: string): unknown {
    switch (type[0]) {
      case 'y':
        return this.buf[this.pos++];
      case 'b':
      case 'u':
      case 'i': {
        this.align(4);
        const v = this.buf.readUInt32LE(this.pos);
        this.pos += 4;
        return v;
      }
      case 's':
      case 'o': {
        const length = this.read('u') as number;
        const text = this.buf.toString('utf8', this.pos, this.pos + length);
        this.pos += length + 1;
        return text;
      }
      case 'g': {
        const length = this.buf[this.pos++]!;
        const text = this.buf.toString('latin1', this.pos, this.pos + length);
        this.pos += length + 1;
        return text;
      }
      case 'v': {
        const signature = this.read('g') as string;
        return [signature, this.read(signature)];
      }
      case '(':
      case '{': {
        this.align(8);
        return splitSignature(type.slice(1, -1)).map((t) => this.read(t));
      }
      case 'a': {
        const length = this.read('u') as number;
        const element = type.slice(1);
        this.align(alignmentOf(element));
        const end = this.pos + length;
        if (element === 'y') {
          const bytes = Buffer.from(this.buf.subarray(this.pos, end));
          this.pos = end;
          return bytes;
        }
        const items: unknown[] = [];
        while (this.pos < end) items.push(this.read(element));
        return items;
      }
      default:
        throw new Error(`D-Bus type '${type}' is not read here`);
    }
  }
}

/** The alignment of a D-Bus type's values. */
function alignmentOf(type: string): number {
  const code = type[0]!;
  if (code === '(' || code === '{' || code === 't' || code === 'x' || code === 'd') return 8;
  if (code === 'y' || code === 'g' || code === 'v') return 1;
  return 4;
}

/** 'oayays' → ['o', 'ay', 'ay', 's']: the complete types of a signature. */
function splitSignature(signature: string): string[] {
  const types: string[] = [];
  let i = 0;
  while (i < signature.length) {
    const start = i;
    while (signature[i] === 'a') i++;
    if (signature[i] === '(' || signature[i] === '{') {
      let depth = 0;
      do {
        if (signature[i] === '(' || signature[i] === '{') depth++;
        if (signature[i] === ')' || signature[i] === '}') depth--;
        i++;
      } while (depth > 0);
    } else {
      i++;
    }
    types.push(signature.slice(start, i));
  }
  return types;
}
