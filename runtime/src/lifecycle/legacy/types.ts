/** Options of the legacy era's sessions: the `initialize` handshake, then a session per connection. */
import type { Transport } from "../../transport.js";
import type { ProtocolBinding } from "../../abi.js";
import type { SessionBytes } from "../../session/running-bytes.js";
import type { Capabilities, Implementation, NotificationHandlers, RequestHandlers } from "../common/types.js";

interface CommonOptions {
  transport: Transport;
  /** The revisions this side speaks (generated `binding` of each `generated/<rev>/index.ts`); legacy ones are used. */
  bindings: readonly ProtocolBinding[];
  capabilities?: Capabilities;
  /** Request handlers by method, checked against the declared capabilities. */
  handlers?: RequestHandlers;
  notificationHandlers?: NotificationHandlers;
  /** Default per-request timeout in ms (60 000). */
  timeout?: number;
  /** Skip validation of the peer's params and results. */
  trustPeer?: boolean;
  /** Unknown-id responses, dropped notifications, transport errors, handler crashes. */
  onerror?: (error: Error) => void;
}

export interface ClientOptions extends CommonOptions {
  clientInfo: Implementation;
  /** Ask for this revision instead of the latest one given in `bindings`. */
  protocolVersion?: string;
}

export interface ServerOptions extends CommonOptions {
  serverInfo: Implementation;
  instructions?: string;
  /**
   * What `initialize` answers for the negotiated revision, when it differs by revision (e.g.
   * `serverInfo.icons` exists only from 2025-11-25). Default: `serverInfo`, `capabilities` and
   * `instructions` as given.
   */
  describe?: (revision: string) => {
    serverInfo: Implementation;
    capabilities: Capabilities;
    instructions?: string | undefined;
  };
  /**
   * Serve without a handshake on this connection (stateless Streamable HTTP, where each POST may
   * reach a fresh session): requests are served at once, `initialize` is answered whenever it
   * comes, and requests to the client are refused (its capabilities are unknown).
   * `protocolVersion` is the request's MCP-Protocol-Version header; without it 2025-03-26 is
   * assumed, as the transport spec says (or the newest revision given, if that one is not).
   */
  stateless?: { protocolVersion?: string };
  /**
   * @internal The handlers given are consistent with the capabilities by construction (the
   * manifest server derives them from its capabilities), so registering them reads no method
   * table: tables load per revision when a connection first uses one.
   */
  handlersChecked?: boolean;
  /** The byte budget the client's running requests are charged against (see SessionOptions.runningBytes). */
  runningBytes?: SessionBytes;
}
