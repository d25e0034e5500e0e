// The part of autocannon 8's programmatic API that scripts/bench/load.ts uses (the package ships
// no types).
declare module "autocannon" {
  namespace autocannon {
    type Request = {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    };
    type Client = { setRequests(requests: Request[]): void };
    type Options = {
      url: string;
      connections?: number;
      duration?: number;
      amount?: number;
      timeout?: number;
      pipelining?: number;
      requests?: Request[];
      setupClient?: (client: Client) => void;
    };
    type Result = {
      requests: { total: number; average: number };
      errors: number;
      timeouts: number;
      non2xx: number;
      duration: number;
    };
    type Instance = {
      on(
        event: "response",
        fn: (client: Client, status: number, bytes: number, ms: number) => void,
      ): void;
      stop(): void;
    };
  }
  function autocannon(
    options: autocannon.Options,
    done?: (error: Error | null, result: autocannon.Result) => void,
  ): autocannon.Instance;
  export = autocannon;
}
