/**
 * Production gift pictures: the mtcute catalogue gives none, so the service asks the Bot API (a
 * loopback server speaking its wire format: `getAvailableGifts`, `getFile`, the file endpoint),
 * keeps each picture and serves it from its own address; the gift list names that address. A gift
 * whose sticker is animated without a thumbnail has none, and a Bot API that fails leaves the
 * gifts on sale without pictures. The browser never sees Telegram or the bot token.
 */
import { assert, describe, it } from "@effect/vitest"
import { NodeHttpClient } from "@effect/platform-node"
import { GiftPictures } from "@resale/core/ports/GiftPictures.ts"
import { GiftSender, type StarGift } from "@resale/core/ports/GiftSender.ts"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { makeBotGiftPictures } from "@resale/telegram/BotGiftPictures.ts"
import { Context, Effect, Fiber, Layer, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { GiftCatalog } from "@resale/webkit/GiftCatalog.ts"
import { DatabasePing } from "../src/server/HttpApp.ts"
import { pictureSrc } from "@resale/web/pages/GiftsPage.ts"
import { makeTestServer, TestServer } from "./TestServer.ts"

const TOKEN = "123456:secret-bot-token"
// Two tiny images as Telegram would store them: a thumbnail (WEBP header) and a static sticker.
const THUMB = Buffer.from("RIFF\x1a\x00\x00\x00WEBPVP8 thumbnail-of-heart", "latin1")
const STATIC = Buffer.from("RIFF\x1a\x00\x00\x00WEBPVP8 static-rose-sticker", "latin1")

const HEART = "5170145012310081615"
const ROSE = "5168103777563050263"
const ROCKET = "5170564780938756245"

/** The Bot API, as far as gift pictures go; counts what it is asked, can be made to fail or to hold its answers. */
const botApi = () => {
  const asked: Array<string> = []
  let failing = false
  let gate: Promise<void> = Promise.resolve()
  const body = (req: IncomingMessage) =>
    new Promise<any>((resolve) => {
      let text = ""
      req.on("data", (c) => (text += c))
      req.on("end", () => resolve(text === "" ? {} : JSON.parse(text)))
    })
  const server = createServer(async (req, res) => {
    const url = req.url ?? ""
    asked.push(url.replace(TOKEN, "<token>"))
    await gate
    const reply = (status: number, value: unknown) => {
      res.writeHead(status, { "content-type": "application/json" })
      res.end(JSON.stringify(value))
    }
    if (!url.includes(`/bot${TOKEN}/`)) return reply(401, { ok: false, error_code: 401, description: "Unauthorized" })
    if (failing) return reply(502, { ok: false, error_code: 502, description: "Bad Gateway" })
    if (url === `/bot${TOKEN}/getAvailableGifts`) {
      return reply(200, {
        ok: true,
        result: {
          gifts: [
            // Telegram's gift stickers: animated with a WEBP thumbnail, static, animated without one.
            {
              id: HEART,
              star_count: 15,
              sticker: {
                file_id: "sticker-heart",
                file_unique_id: "u1",
                type: "custom_emoji",
                width: 512,
                height: 512,
                is_animated: true,
                is_video: false,
                thumbnail: { file_id: "thumb-heart", file_unique_id: "u2", width: 128, height: 128 }
              }
            },
            {
              id: ROSE,
              star_count: 25,
              sticker: {
                file_id: "sticker-rose",
                file_unique_id: "u3",
                type: "regular",
                width: 512,
                height: 512,
                is_animated: false,
                is_video: false
              }
            },
            {
              id: ROCKET,
              star_count: 50,
              sticker: {
                file_id: "sticker-rocket",
                file_unique_id: "u4",
                type: "custom_emoji",
                width: 512,
                height: 512,
                is_animated: true,
                is_video: false
              }
            }
          ]
        }
      })
    }
    if (url === `/bot${TOKEN}/getFile`) {
      const { file_id } = await body(req)
      const path =
        file_id === "thumb-heart"
          ? "thumbnails/file_7.webp"
          : file_id === "sticker-rose"
            ? "stickers/file_3.webp"
            : undefined
      return path === undefined
        ? reply(400, { ok: false, error_code: 400, description: "Bad Request: invalid file_id" })
        : reply(200, { ok: true, result: { file_id, file_unique_id: "x", file_size: 30, file_path: path } })
    }
    if (url === `/file/bot${TOKEN}/thumbnails/file_7.webp` || url === `/file/bot${TOKEN}/stickers/file_3.webp`) {
      res.writeHead(200, { "content-type": "application/octet-stream" })
      return res.end(url.endsWith("file_7.webp") ? THUMB : STATIC)
    }
    reply(404, { ok: false, error_code: 404, description: "Not Found" })
  })
  return Effect.acquireRelease(
    Effect.promise(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))),
    () => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
  ).pipe(
    Effect.map(() => ({
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      asked,
      fail: (on: boolean) => {
        failing = on
      },
      /** Answers nothing until the returned function is called (requests are still counted). */
      hold: () => {
        let release = () => {}
        gate = new Promise<void>((resolve) => (release = resolve))
        return release
      }
    }))
  )
}

const gift = (id: string, stars: number, title: string): StarGift => ({
  id,
  stars,
  title,
  remaining: null,
  total: null,
  soldOut: false
})

/** mtcute's catalogue: the gifts, no pictures. */
const MtcuteLike = Layer.succeed(GiftSender)(
  GiftSender.of({
    accounts: ["user"],
    catalogue: Effect.succeed([gift(HEART, 15, "Heart"), gift(ROSE, 25, "Rose"), gift(ROCKET, 50, "Rocket")]),
    send: () => Effect.die("not used"),
    findSent: () => Effect.die("not used")
  })
)

/** The adapter as the world builds it (its HTTP client lives as long as the layer), in the test's scope. */
const adapter = (botUrl: string) =>
  Effect.map(
    Layer.build(
      Layer.effect(GiftPictures, makeBotGiftPictures({ apiUrl: botUrl, token: Redacted.make(TOKEN) })).pipe(
        Layer.provide(NodeHttpClient.layerUndici)
      )
    ),
    (context) => Context.get(context, GiftPictures)
  )

/** The Bot API adapter against the loopback server, and the catalogue over it as the server builds it. */
const shopOver = (botUrl: string) =>
  Effect.gen(function* () {
    const impl = yield* adapter(botUrl)
    // As the server wires it: the world's GiftSender and GiftPictures under the catalogue.
    const built = yield* Layer.build(
      GiftCatalog.layerWith({ publicUrl: "https://shop.example/" }).pipe(
        Layer.provide(Layer.mergeAll(MtcuteLike, Layer.succeed(GiftPictures)(impl)))
      )
    )
    return { impl, catalog: Context.get(built, GiftCatalog) }
  })

describe("gift pictures from the Bot API", () => {
  it("the page loads the service's own pictures from its own address, whatever PUBLIC_URL says", () => {
    assert.strictEqual(pictureSrc(`https://shop.example/v2/gift-pictures/${HEART}`), `/v2/gift-pictures/${HEART}`)
    assert.strictEqual(pictureSrc("data:image/svg+xml;base64,PHN2Zy8+"), "data:image/svg+xml;base64,PHN2Zy8+")
    assert.strictEqual(
      pictureSrc("https://cdn.example/v2/gift-pictures/1/x"),
      "https://cdn.example/v2/gift-pictures/1/x"
    )
    assert.strictEqual(pictureSrc(null), "/v2/static/icon.svg")
  })

  it.effect(
    "the list names the service's own address; each picture is fetched once, none for an animated sticker alone",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const bot = yield* botApi()
          const { catalog } = yield* shopOver(bot.url)
          const listed = Object.fromEntries((yield* catalog.list).map((g) => [g.id, g.picture]))
          assert.deepStrictEqual(listed, {
            [HEART]: `https://shop.example/v2/gift-pictures/${HEART}`,
            [ROSE]: `https://shop.example/v2/gift-pictures/${ROSE}`,
            [ROCKET]: null
          })
          const heart = Option.getOrThrow(yield* catalog.picture(HEART))
          assert.strictEqual(heart.contentType, "image/webp")
          assert.deepStrictEqual(Buffer.from(heart.bytes), THUMB)
          assert.deepStrictEqual(Buffer.from(Option.getOrThrow(yield* catalog.picture(ROSE)).bytes), STATIC)
          yield* catalog.picture(HEART)
          assert.isTrue(Option.isNone(yield* catalog.picture(ROCKET)))
          assert.isTrue(Option.isNone(yield* catalog.picture("123")))
          assert.isTrue(Option.isNone(yield* catalog.picture("../etc")))
          // The list once, and one getFile and one download per picture: the second look is served from memory.
          assert.deepStrictEqual(bot.asked, [
            "/bot<token>/getAvailableGifts",
            "/bot<token>/getFile",
            "/file/bot<token>/thumbnails/file_7.webp",
            "/bot<token>/getFile",
            "/file/bot<token>/stickers/file_3.webp"
          ])
        })
      )
  )

  it.effect("a failing Bot API leaves the gifts on sale, without pictures, and is asked again later", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const bot = yield* botApi()
        bot.fail(true)
        const { catalog, impl } = yield* shopOver(bot.url)
        const gifts = yield* catalog.list
        assert.strictEqual(gifts.length, 3)
        assert.isTrue(gifts.every((g) => g.picture === null))
        assert.isTrue(Option.isNone(yield* catalog.picture(HEART)))
        assert.strictEqual((yield* impl.pictured).size, 0)
        // Telegram answers again: a minute later the pictures are there.
        bot.fail(false)
        yield* TestClock.adjust("2 minutes")
        assert.deepStrictEqual([...(yield* impl.pictured)].sort(), [ROSE, HEART].sort())
        assert.strictEqual((yield* catalog.list).filter((g) => g.picture !== null).length, 2)
      })
    )
  )

  it.effect(
    "a picture Telegram fails to give: concurrent requests share one call, a repeat within 5 minutes makes none",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const bot = yield* botApi()
          const impl = yield* adapter(bot.url)
          assert.strictEqual((yield* impl.pictured).size, 2)
          const calls = () => bot.asked.filter((url) => !url.endsWith("/getAvailableGifts"))
          // Anonymous visitors ask for one picture at once while Telegram is failing and slow.
          bot.fail(true)
          const release = bot.hold()
          const waiting = yield* Effect.forkChild(
            Effect.all(
              Array.from({ length: 20 }, () => impl.picture(HEART)),
              { concurrency: "unbounded" }
            )
          )
          // Real time (the test clock stands still): until Telegram is asked, then a little longer for any other call.
          const pause = (ms: number) => Effect.promise(() => new Promise((resolve) => setTimeout(resolve, ms)))
          for (let i = 0; i < 100 && calls().length === 0; i++) yield* pause(50)
          yield* pause(300)
          assert.deepStrictEqual(calls(), ["/bot<token>/getFile"], "one call in flight for 20 requests")
          release()
          assert.isTrue((yield* Fiber.join(waiting)).every(Option.isNone))
          // Within the window nobody asks Telegram again, however often the page is loaded.
          yield* TestClock.adjust("4 minutes")
          assert.isTrue(Option.isNone(yield* impl.picture(HEART)))
          assert.isTrue(Option.isNone(yield* impl.picture(HEART)))
          assert.deepStrictEqual(calls(), ["/bot<token>/getFile"])
          // After it, Telegram is asked once more; the picture it gives is kept, shared by concurrent requests.
          bot.fail(false)
          yield* TestClock.adjust("2 minutes")
          const pictures = yield* Effect.all(
            Array.from({ length: 5 }, () => impl.picture(HEART)),
            { concurrency: "unbounded" }
          )
          assert.isTrue(pictures.every((p) => Option.isSome(p) && Buffer.from(p.value.bytes).equals(THUMB)))
          assert.deepStrictEqual(calls(), [
            "/bot<token>/getFile",
            "/bot<token>/getFile",
            "/file/bot<token>/thumbnails/file_7.webp"
          ])
        })
      )
  )

  it.effect("the server serves a picture from its own address, with its type; a gift without one is a 404", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const bot = yield* botApi()
        const impl = yield* adapter(bot.url)
        const server = yield* Layer.build(
          makeTestServer(
            Layer.mergeAll(IsolatedPostgres.layerStore, Layer.succeed(GiftPictures)(impl)),
            {},
            DatabasePing.layer as never
          )
        )
        const { url } = Context.get(server, TestServer)
        const ok = yield* Effect.promise(() => fetch(`${url}/v2/gift-pictures/${HEART}`))
        assert.strictEqual(ok.status, 200)
        assert.strictEqual(ok.headers.get("content-type"), "image/webp")
        assert.strictEqual(ok.headers.get("x-content-type-options"), "nosniff")
        assert.deepStrictEqual(Buffer.from(yield* Effect.promise(() => ok.arrayBuffer())), THUMB)
        assert.strictEqual((yield* Effect.promise(() => fetch(`${url}/v2/gift-pictures/${ROCKET}`))).status, 404)
        assert.strictEqual((yield* Effect.promise(() => fetch(`${url}/v2/gift-pictures/not-a-gift`))).status, 404)
      })
    )
  )
})
