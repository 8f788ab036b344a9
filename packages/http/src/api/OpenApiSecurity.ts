import type { Context } from "effect"
import { AdminTokenAuth, ApiKeyAuth, OperatorSession, UserSession } from "./Middleware.ts"

/**
 * Each operation's security requirement, read from the route table: the authentication middleware
 * an endpoint runs behind is the scheme its document declares. Why not by tag: a group added
 * behind `ApiKeyAuth` under a new tag (the webhooks) was declared open, and generated clients then
 * sent no key. The auth middlewares are not effect security middlewares, so effect lists none.
 */
export const SCHEME_OF_MIDDLEWARE: ReadonlyMap<Context.Key<any, any>, string> = new Map<Context.Key<any, any>, string>([
  [ApiKeyAuth, "apiKey"],
  [AdminTokenAuth, "adminToken"],
  [UserSession, "userSession"],
  [OperatorSession, "operatorSession"]
])

/** The parts of an HttpApi this reads: its groups' endpoints and their middleware. */
export interface RouteTable {
  readonly groups: Readonly<
    Record<
      string,
      {
        readonly endpoints: Readonly<
          Record<
            string,
            {
              readonly method: string
              readonly path: string
              readonly middlewares: ReadonlySet<Context.Key<any, any>>
            }
          >
        >
      }
    >
  >
}

/** `get /v2/api/webhooks/{webhook_id}`: how the document names an endpoint's operation. */
export const operationKey = (method: string, path: string): string =>
  `${method.toLowerCase()} ${path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}")}`

/** Every middleware must pass (one requirement naming all their schemes); none: open. */
export const securityOf = (
  middlewares: ReadonlySet<Context.Key<any, any>>
): ReadonlyArray<Record<string, ReadonlyArray<string>>> => {
  const schemes = [...middlewares].flatMap((m) => {
    const scheme = SCHEME_OF_MIDDLEWARE.get(m)
    return scheme === undefined ? [] : [scheme]
  })
  return schemes.length === 0 ? [] : [Object.fromEntries(schemes.map((s) => [s, []]))]
}

/** Operation key -> security requirement, for every endpoint of `api`. */
export const securityByOperation = (
  api: RouteTable
): ReadonlyMap<string, ReadonlyArray<Record<string, ReadonlyArray<string>>>> =>
  new Map(
    Object.values(api.groups).flatMap((group) =>
      Object.values(group.endpoints).map((e) => [operationKey(e.method, e.path), securityOf(e.middlewares)] as const)
    )
  )
