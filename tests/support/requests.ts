// Drives loaders and actions with real Requests, carrying the session cookie like a browser.
export class Browser {
  cookie = "";

  /** The client address server.ts would pass on; set it to exercise per-IP limits. */
  constructor(readonly ip?: string) {}

  private remember(response: Response) {
    const setCookie = response.headers.get("Set-Cookie");
    if (!setCookie) return;
    const [pair, ...attributes] = setCookie.split(";");
    const expired = attributes.some((a) => /expires=Thu, 01 Jan 1970/i.test(a));
    this.cookie = expired ? "" : pair.trim();
  }

  get(path: string, init: { signal?: AbortSignal } = {}) {
    return new Request(`http://localhost${path}`, { headers: this.headers(), ...init });
  }

  /** A multipart post (a form with a file input). */
  postMultipart(path: string, fields: Record<string, string | File>) {
    const body = new FormData();
    for (const [key, value] of Object.entries(fields)) body.append(key, value);
    return new Request(`http://localhost${path}`, {
      method: "POST",
      headers: this.headers(),
      body,
    });
  }

  post(path: string, fields: Record<string, string | string[]>) {
    const body = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) {
      for (const v of Array.isArray(value) ? value : [value]) body.append(key, v);
    }
    return new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { ...this.headers(), "Content-Type": "application/x-www-form-urlencoded" },
      body: body.toString(),
    });
  }

  /** Runs a loader or action; a thrown Response (redirect, 404) is returned like a returned one. */
  async run(
    fn: (args: {
      request: Request;
      params: Record<string, string>;
      context: Record<string, unknown>;
    }) => unknown,
    request: Request,
    params: Record<string, string> = {},
  ) {
    let result: unknown;
    try {
      result = await fn({ request, params, context: {} });
    } catch (thrown) {
      if (thrown instanceof Response) result = thrown;
      else throw thrown;
    }
    if (result instanceof Response) this.remember(result);
    return result;
  }

  private headers(): Record<string, string> {
    return {
      ...(this.cookie ? { Cookie: this.cookie } : {}),
      ...(this.ip ? { "X-Arc-Client-Ip": this.ip } : {}),
    };
  }
}

export function statusOf(result: unknown) {
  if (result instanceof Response) return result.status;
  const init = (result as { init?: { status?: number } } | null)?.init;
  return init?.status ?? 200;
}

export function locationOf(result: unknown) {
  return result instanceof Response ? result.headers.get("Location") : null;
}

/** The body of a data() result or a JSON Response. */
export async function bodyOf<T = Record<string, unknown>>(result: unknown): Promise<T> {
  if (result instanceof Response) return (await result.json()) as T;
  const withData = result as { data?: unknown; type?: string };
  if (withData && withData.type === "DataWithResponseInit") return withData.data as T;
  return result as T;
}
