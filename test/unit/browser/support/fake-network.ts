// The objects a fake page hands to the code under test: a minimal event emitter, a CDP session that
// records what is sent, and frames, requests and responses with the private fields cdp-internals.ts
// reads (`_id` on frames, `id` on requests). Built and emitted by FakePage (fake-page.ts).

type Handler = (payload: never) => void;

export class Emitter<Name extends string> {
  private readonly handlers = new Map<string, Set<Handler>>();

  on(event: Name, handler: Handler): this {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set());
    this.handlers.get(event)!.add(handler);
    return this;
  }

  off(event: Name, handler: Handler): this {
    this.handlers.get(event)?.delete(handler);
    return this;
  }

  emit(event: Name, payload?: unknown): void {
    for (const handler of [...(this.handlers.get(event) ?? [])]) (handler as (payload: unknown) => void)(payload);
  }

  listenerCount(): number {
    let count = 0;
    for (const set of this.handlers.values()) count += set.size;
    return count;
  }
}

export class FakeCdpSession extends Emitter<string> {
  readonly sent: { method: string; params: unknown }[] = [];
  /** Answers a command itself when set; otherwise every command answers {}. */
  answer?: (method: string, params: unknown) => Promise<object | undefined> | undefined;

  async send(method: string, params?: unknown): Promise<object> {
    this.sent.push({ method, params });
    return (await this.answer?.(method, params)) ?? {};
  }
}

export class FakeFrame {
  constructor(
    readonly _id: string,
    private readonly parent: FakeFrame | null,
    private address = 'about:blank',
  ) {}

  /** The CDP session of the frame's target (puppeteer's _client()), once the page sets it. */
  session?: FakeCdpSession;

  parentFrame(): FakeFrame | null {
    return this.parent;
  }

  childFrames(): FakeFrame[] {
    return [];
  }

  _client(): FakeCdpSession | undefined {
    return this.session;
  }

  url(): string {
    return this.address;
  }

  moveTo(url: string): void {
    this.address = url;
  }
}

export class FakeRequest {
  /** The net error the request failed with, once it has (puppeteer's failure()). */
  errorText?: string;

  constructor(
    readonly id: string,
    private readonly address: string,
    private readonly owner: FakeFrame,
    private readonly navigation: boolean,
    /** CDP's resource type, as puppeteer lowercases it. */
    private readonly type: string = navigation ? 'document' : 'script',
  ) {}

  resourceType(): string {
    return this.type;
  }

  url(): string {
    return this.address;
  }

  frame(): FakeFrame {
    return this.owner;
  }

  isNavigationRequest(): boolean {
    return this.navigation;
  }

  failure(): { errorText: string } | null {
    return this.errorText === undefined ? null : { errorText: this.errorText };
  }
}

export interface FakeResponseInit {
  status?: number;
  headers?: Record<string, string>;
  /** The server address Chrome connected to; a public one unless given. */
  ip?: string;
}

export class FakeResponse {
  private readonly code: number;
  private readonly fields: Record<string, string>;
  private readonly ip: string;

  constructor(
    private readonly origin: FakeRequest,
    { status = 200, headers = { 'content-type': 'text/html; charset=utf-8' }, ip = '93.184.215.14' }: FakeResponseInit,
  ) {
    this.code = status;
    this.fields = headers;
    this.ip = ip;
  }

  request(): FakeRequest {
    return this.origin;
  }

  status(): number {
    return this.code;
  }

  headers(): Record<string, string> {
    return this.fields;
  }

  remoteAddress(): { ip?: string; port?: number } {
    return { ip: this.ip, port: 443 };
  }

  url(): string {
    return this.origin.url();
  }
}
