import { Effect, Layer, Option } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { GiftCatalog } from "@resale/webkit/GiftCatalog.ts"
import { json } from "../Answers.ts"

/**
 * The gift pictures the service fetched from Telegram (the Bot API's gift stickers), from its own
 * address: the shopper's browser never talks to Telegram and the bot token never leaves the server.
 *
 *   GET /v2/gift-pictures/:gift_id   image/webp | image/jpeg | image/png; 404 when there is none
 */
export const GIFT_PICTURE_ROUTES = [{ method: "GET", path: "/v2/gift-pictures/:gift_id" }] as const

const ONE_DAY_SECONDS = 24 * 60 * 60

export const GiftPictureRoutes = Layer.effectDiscard(
  Effect.gen(function* () {
    const router = yield* HttpRouter.HttpRouter
    const catalog = yield* GiftCatalog
    yield* router.add("GET", "/v2/gift-pictures/:gift_id", () =>
      Effect.gen(function* () {
        const id = (yield* HttpRouter.params)["gift_id"] ?? ""
        const found = yield* catalog.picture(id)
        if (Option.isNone(found)) return json({ detail: "Not Found", code: "not_found" }, 404)
        return HttpServerResponse.uint8Array(found.value.bytes, {
          contentType: found.value.contentType,
          headers: { "cache-control": `public, max-age=${ONE_DAY_SECONDS}`, "x-content-type-options": "nosniff" }
        })
      })
    )
  })
)
