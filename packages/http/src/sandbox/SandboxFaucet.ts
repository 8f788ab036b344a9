/**
 * The sandbox faucet over HTTP: `POST /v2/api/admin/sandbox/fund` with `X-Admin-Token` and
 * `{"address", "amount_ton"}` sends sandbox TON from the emulator's faucet and answers the new balance.
 * The running server owns the emulator (its state is in memory and written to DATA_DIR after every
 * change), so sandbox tools such as `resale sandbox fund` go through here instead of the state file.
 * Mounted in sandbox mode only: elsewhere the path answers 404 like any unknown one.
 *
 * Like the rest of `/v2`: invalid input answers 422 with every invalid part, before the token is
 * checked; a missing or wrong token 401 (compared in constant time).
 */
import { formatTon } from "@resale/core/money/Nanoton.ts"
import { makeSandboxFunding } from "@resale/ton/SandboxFunding.ts"
import { ByteSize, Effect, Redacted, Result } from "effect"
import { HttpIncomingMessage, HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { safeEqual } from "@resale/webkit/TelegramLogin.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import type { KnownRoute } from "../validation/FastApiFallback.ts"
import { parseFaucetRequest } from "./FaucetRequest.ts"

export const SANDBOX_FUND_PATH = "/v2/api/admin/sandbox/fund"

/** For the server's 404/405 answers (sandbox mode only). */
export const sandboxKnownRoutes: ReadonlyArray<KnownRoute> = [{ method: "POST", path: SANDBOX_FUND_PATH }]

const MAX_BODY_BYTES = 4096

const json = (body: unknown, status = 200) => HttpServerResponse.jsonUnsafe(body, { status })

/** The faucet route over the sandbox chain in context. */
export const SandboxFaucetRoute = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const config = yield* HttpConfig
    const funding = yield* makeSandboxFunding
    const expected = Redacted.value(config.adminToken)

    const handle = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const length = Number(request.headers["content-length"] ?? "0")
        if (Number.isFinite(length) && length > MAX_BODY_BYTES)
          return json({ detail: "Request body too large", code: "payload_too_large" }, 413)
        const text = yield* request.text.pipe(
          Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(MAX_BODY_BYTES)),
          Effect.result
        )
        if (Result.isFailure(text)) return json({ detail: "Request body too large", code: "payload_too_large" }, 413)

        const parsed = yield* parseFaucetRequest(text.success, funding.parseAddress)
        if (parsed._tag === "Invalid") return json({ detail: parsed.detail }, 422)

        const token = request.headers["x-admin-token"]
        if (token === undefined)
          return json({ detail: "Missing X-Admin-Token header", code: "admin_token_missing" }, 401)
        if (!safeEqual(token, expected))
          return json({ detail: "Invalid admin token", code: "admin_token_invalid" }, 401)

        const { address: to, amount } = parsed.request
        const funded = yield* Effect.result(funding.fund(to, amount))
        if (Result.isFailure(funded)) {
          yield* Effect.logWarning("sandbox faucet failed", funded.failure.message)
          return json({ detail: `The sandbox faucet failed: ${funded.failure.message}`, code: "internal_error" }, 503)
        }
        yield* Effect.logInfo(`sandbox faucet: ${formatTon(amount)} TON to ${to}`)
        return json({
          address: to,
          funded_ton: formatTon(amount),
          balance_ton: formatTon(funded.success),
          balance_nanoton: funded.success.toString(),
          network: funding.network,
          sandbox: true
        })
      })

    yield* router.add("POST", SANDBOX_FUND_PATH, handle)
  })
)
