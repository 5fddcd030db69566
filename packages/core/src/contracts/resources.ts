/**
 * The resource contract: what a provider implements to serve `resources/list`,
 * `resources/templates/list` and `resources/read`, independent of the MCP SDK. Prompts-as-resources
 * is one provider; a resource package (url:, doc://, …) plugs in the same way.
 */

export interface ResourceInfo {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

export interface ResourceTemplateInfo {
  /** RFC 6570, e.g. `prompt://{name}`. */
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

export type ResourceContents =
  | { readonly uri: string; readonly mimeType?: string; readonly text: string }
  | { readonly uri: string; readonly mimeType?: string; readonly blob: string };

export interface ResourceProvider {
  /** Handles URIs starting with `${scheme}://`. */
  readonly scheme: string;
  list(): readonly ResourceInfo[];
  templates(): readonly ResourceTemplateInfo[];
  /** Throws `PromptyardError('RESOURCE_NOT_FOUND')` for an unknown URI. */
  read(uri: string, signal?: AbortSignal): Promise<readonly ResourceContents[]>;
  /** Suggestions for a template variable (`completion/complete` with `ref/resource`). */
  complete?(uriTemplate: string, variable: string, value: string): readonly string[] | Promise<readonly string[]>;
  /** Releases what the provider holds (connections, timers) when the server stops. */
  close?(): Promise<void>;
}
