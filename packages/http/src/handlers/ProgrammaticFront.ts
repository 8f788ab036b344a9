import { Accounts } from "@resale/core/accounts/Accounts.ts"
import type { Uzs } from "@resale/core"
import { Effect, Layer, Option, Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import * as Dto from "@resale/wire/Dtos.ts"
import { ProgrammaticApi } from "../api/ProgrammaticApi.ts"
import { FrontDoor } from "../server/FrontDoor.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"

/** The answer of `GET /v2/api/balance`: the HttpApi handler and the front route give this one. */
export const balanceAnswer = (balance: Uzs, sandbox: boolean): typeof Dto.Balance.Type => ({
  balance_uzs: balance,
  sandbox
})

const BALANCE_PATH: string = ProgrammaticApi.endpoints.balance.path

/**
 * `GET /v2/api/balance`, the most polled API-key route, at the server's front door (when it has one):
 * the key is authenticated as the HttpApi route's middleware does and the balance read, in one fiber
 * and one storage read (`Accounts.balanceByApiKey`), and the answer made by the same function as the
 * HttpApi handler's and encoded with the contract's schema. Only the success is answered there; a
 * missing or unknown key, a query, anything else goes to the HttpApi route, which answers it as
 * always (its 401s and 422s included). Both are read-only, so a request handed on loses nothing.
 */
export const ProgrammaticFrontRoutes: Layer.Layer<never, never, Accounts | HttpConfig> = Layer.effectDiscard(
  Effect.gen(function* () {
    const door = yield* Effect.serviceOption(FrontDoor)
    if (Option.isNone(door)) return
    const accounts = yield* Accounts
    const { sandbox } = yield* HttpConfig
    const encode = Schema.encodeSync(Dto.Balance)
    door.value.add((method, url, headers) => {
      const key = headers["x-api-key"]
      if (method !== "GET" || url !== BALANCE_PATH || typeof key !== "string") return undefined
      return accounts.balanceByApiKey(key).pipe(
        Effect.map(({ balance, userId }) => ({
          response: HttpServerResponse.jsonUnsafe(encode(balanceAnswer(balance, sandbox))),
          route: BALANCE_PATH,
          user: String(userId)
        })),
        Effect.catchCause(() => Effect.succeed(undefined))
      )
    }, BALANCE_PATH)
  })
)
