// oidc-provider 9 ships no type declarations: the parts Verdict uses, loosely typed.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";
  export interface Interaction {
    uid: string;
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, string | undefined>;
    session?: { accountId?: string };
    grantId?: string;
    lastSubmission?: Record<string, unknown>;
  }
  export interface GrantInstance {
    addResourceScope(resource: string, scope: string): void;
    rejectResourceScope(resource: string, scope: string): void;
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    on(event: string, listener: (...args: any[]) => void): this;
    proxy: boolean;
    Grant: {
      new (init: { accountId: string; clientId: string }): GrantInstance;
      find(id: string): Promise<GrantInstance | undefined>;
    };
    Client: { prototype: { compareClientSecret(actual: string): Promise<boolean> }; find(id: string): Promise<any> };
    AccessToken: { prototype: { generateTokenId(): string } };
    RefreshToken: { prototype: { generateTokenId(): string } };
  }
  export const errors: Record<string, new (description?: string) => Error>;
}
