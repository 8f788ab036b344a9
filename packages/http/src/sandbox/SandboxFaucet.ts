/**
 * The sandbox faucet over HTTP (`SandboxFaucetApi.ts`): sends sandbox TON from the emulator's faucet
 * and answers the new balance. The running server owns the emulator (its state is in memory and
 * written to DATA_DIR after every change), so sandbox tools such as `resale sandbox fund` go
 * through here instead of the state file. The token is compared in constant time.
 */
import { formatTon } from "@resale/core/money/Nanoton.ts"
import { makeSandboxFunding } from "@resale/ton/SandboxFunding.ts"
import { ByteSize, Effect, Layer, Redacted } from "effect"
import { HttpIncomingMessage } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { safeEqual } from "@resale/webkit/TelegramLogin.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { HTTPValidationError, PayloadTooLarge, ServiceUnavailable, Unauthorized } from "../api/Errors.ts"
import type { KnownRoute } from "../validation/FastApiFallback.ts"
import { parseFaucetRequest } from "./FaucetRequest.ts"
import { SANDBOX_FUND_PATH, SandboxFaucetApi } from "./SandboxFaucetApi.ts"

export { SANDBOX_FUND_PATH }

/** For the server's 404/405 answers (sandbox mode only). */
export const sandboxKnownRoutes: ReadonlyArray<KnownRoute> = Object.values(SandboxFaucetApi.groups).flatMap((group) =>
  Object.values(group.endpoints).map((endpoint) => ({ method: endpoint.method, path: endpoint.path }))
)

const MAX_BODY_BYTES = 4096

const tooLarge = new PayloadTooLarge({ detail: "Request body too large", code: "payload_too_large" })

const FaucetHandlers = HttpApiBuilder.group(SandboxFaucetApi, "sandboxFaucet", (handlers) =>
  Effect.gen(function* () {
    const config = yield* HttpConfig
    const funding = yield* makeSandboxFunding
    const expected = Redacted.value(config.adminToken)

    return handlers.handle("fund", ({ request }) =>
      Effect.gen(function* () {
        const length = Number(request.headers["content-length"] ?? "0")
        if (Number.isFinite(length) && length > MAX_BODY_BYTES) return yield* tooLarge
        const text = yield* request.text.pipe(
          Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(MAX_BODY_BYTES)),
          Effect.mapError(() => tooLarge)
        )

        const parsed = yield* parseFaucetRequest(text, funding.parseAddress)
        if (parsed._tag === "Invalid") return yield* new HTTPValidationError({ detail: parsed.detail })

        const token = request.headers["x-admin-token"]
        if (token === undefined)
          return yield* new Unauthorized({ detail: "Missing X-Admin-Token header", code: "admin_token_missing" })
        if (!safeEqual(token, expected))
          return yield* new Unauthorized({ detail: "Invalid admin token", code: "admin_token_invalid" })

        const { address: to, amount } = parsed.request
        const balance = yield* funding.fund(to, amount).pipe(
          Effect.tapError((e) => Effect.logWarning("sandbox faucet failed", e.message)),
          Effect.mapError(
            (e) => new ServiceUnavailable({ detail: `The sandbox faucet failed: ${e.message}`, code: "internal_error" })
          )
        )
        yield* Effect.logInfo(`sandbox faucet: ${formatTon(amount)} TON to ${to}`)
        return {
          address: to,
          funded_ton: formatTon(amount),
          balance_ton: formatTon(balance),
          balance_nanoton: balance.toString(),
          network: funding.network,
          sandbox: true
        }
      })
    )
  })
)

/** The faucet route over the sandbox chain in context (mounted by the start entry in sandbox mode). */
export const SandboxFaucetRoute = HttpApiBuilder.layer(SandboxFaucetApi).pipe(Layer.provide(FaucetHandlers))
