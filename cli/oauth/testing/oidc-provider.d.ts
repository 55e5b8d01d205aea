// The slice of oidc-provider 9 the test provider uses (the package ships no types; this avoids a
// @types dependency for one test helper).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  namespace Provider {
    interface KoaContextWithOIDC {
      oidc?: {
        params?: Record<string, unknown>;
        client?: { clientId: string };
      };
    }
    interface Client {
      clientId: string;
      grantTypeAllowed(grant: string): boolean;
    }
  }

  class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (ctx: Provider.KoaContextWithOIDC, err?: Error) => void): this;
  }
  export default Provider;
}
