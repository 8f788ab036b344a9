/// <reference lib="dom" />
/**
 * Production gift pictures in headless Chromium: the server in production mode (no sandbox, the
 * shopper signed in through the Telegram login callback), its gift list from a catalogue that gives
 * no pictures (as mtcute's), and the Bot API adapter (`BotGiftPictures`) against a loopback Bot API
 * speaking its wire format with real WEBP and JPEG images. The gifts page at 360 px shows Telegram's
 * pictures from the service's own address (loaded, real pixel sizes), a gift box where Telegram has
 * none, and the browser never talks to Telegram nor sees the bot token.
 */
import { NodeHttpClient, NodeHttpServer } from "@effect/platform-node"
import { assert, layer } from "@effect/vitest"
import { GiftPictures } from "@resale/core/ports/GiftPictures.ts"
import { GiftSender, type StarGift } from "@resale/core/ports/GiftSender.ts"
import { loginHash } from "@resale/webkit/TelegramLogin.ts"
import { GiftCatalog } from "@resale/webkit/GiftCatalog.ts"
import { HttpConfig } from "@resale/webkit/HttpConfig.ts"
import { DatabasePing, HttpServices, httpApp } from "@resale/http/server/HttpApp.ts"
import { serveLean } from "@resale/http/server/LeanServe.ts"
import { WEB_ROUTES, WebUi } from "@resale/web/WebUi.ts"
import { FragmentSandbox } from "@resale/marketplace"
import { IsolatedPostgres } from "@resale/store/testing/IsolatedPostgres.ts"
import { makeBotGiftPictures } from "@resale/telegram/BotGiftPictures.ts"
import { Context, Effect, Layer, Redacted, References } from "effect"
import { HttpServer } from "effect/http"
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import type { Page } from "playwright-core"
import { browser, DESKTOP, person, PHONE, screenshot } from "./support/Browser.ts"

const TOKEN = "7654321:production-bot-token"
const HEART = "5170145012310081615"
const ROSE = "5168103777563050263"
const TEDDY = "5170233102089322756"
const ROCKET = "5170564780938756245"

/** Telegram's files as the loopback Bot API keeps them; drawn by Chromium before the page asks. */
interface Files {
  heart?: Buffer
  rose?: Buffer
  teddy?: Buffer
}

/** The Bot API as far as gift pictures go: the gift list, getFile, the file endpoint; logs what it is asked. */
class BotApi extends Context.Service<
  BotApi,
  { readonly url: string; readonly asked: Array<string>; readonly files: Files }
>()("test/web/BotApi") {}

const PATHS: Record<string, readonly [path: string, file: keyof Files]> = {
  "thumb-heart": ["thumbnails/file_7.webp", "heart"],
  "sticker-rose": ["stickers/file_3.webp", "rose"],
  "thumb-teddy": ["thumbnails/file_9.jpg", "teddy"]
}

const botApiLayer = Layer.effect(BotApi)(
  Effect.gen(function* () {
    const asked: Array<string> = []
    const files: Files = {}
    const body = (req: IncomingMessage) =>
      new Promise<Record<string, string>>((resolve) => {
        let text = ""
        req.on("data", (c) => (text += c))
        req.on("end", () => resolve(text === "" ? {} : JSON.parse(text)))
      })
    const sticker = (id: string, thumb?: string) => ({
      file_id: `sticker-${id}`,
      file_unique_id: `u-${id}`,
      type: "custom_emoji",
      width: 512,
      height: 512,
      is_animated: thumb !== undefined || id === "rocket",
      is_video: false,
      ...(thumb ? { thumbnail: { file_id: thumb, file_unique_id: `t-${id}`, width: 128, height: 128 } } : {})
    })
    const server = createServer(async (req, res) => {
      const url = req.url ?? ""
      asked.push(url.replace(TOKEN, "<token>"))
      const reply = (status: number, value: unknown) => {
        res.writeHead(status, { "content-type": "application/json" })
        res.end(JSON.stringify(value))
      }
      if (!url.includes(`/bot${TOKEN}/`)) return reply(401, { ok: false, error_code: 401, description: "Unauthorized" })
      if (url === `/bot${TOKEN}/getAvailableGifts`) {
        return reply(200, {
          ok: true,
          result: {
            gifts: [
              // Animated with a WEBP thumbnail, static WEBP, animated with a JPEG thumbnail, animated alone.
              { id: HEART, star_count: 15, sticker: sticker("heart", "thumb-heart") },
              { id: ROSE, star_count: 25, sticker: { ...sticker("rose"), type: "regular", is_animated: false } },
              { id: TEDDY, star_count: 15, sticker: sticker("teddy", "thumb-teddy") },
              { id: ROCKET, star_count: 50, sticker: sticker("rocket") }
            ]
          }
        })
      }
      if (url === `/bot${TOKEN}/getFile`) {
        const { file_id } = await body(req)
        const known = PATHS[file_id ?? ""]
        return known === undefined
          ? reply(400, { ok: false, error_code: 400, description: "Bad Request: invalid file_id" })
          : reply(200, { ok: true, result: { file_id, file_unique_id: "x", file_size: 1000, file_path: known[0] } })
      }
      const file = Object.values(PATHS).find(([path]) => url === `/file/bot${TOKEN}/${path}`)
      const bytes = file === undefined ? undefined : files[file[1]]
      if (bytes === undefined) return reply(404, { ok: false, error_code: 404, description: "Not Found" })
      res.writeHead(200, { "content-type": "application/octet-stream" })
      res.end(bytes)
    })
    yield* Effect.acquireRelease(
      Effect.promise(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))),
      () => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
    )
    return BotApi.of({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked, files })
  })
)

/** mtcute's catalogue: Telegram's gifts without titles or pictures. */
const gift = (id: string, stars: number): StarGift => ({
  id,
  stars,
  title: null,
  remaining: null,
  total: null,
  soldOut: false
})
const MtcuteLike = Layer.succeed(GiftSender)(
  GiftSender.of({
    accounts: ["user"],
    catalogue: Effect.succeed([gift(HEART, 15), gift(ROSE, 25), gift(TEDDY, 15), gift(ROCKET, 50)]),
    send: () => Effect.die("not used"),
    findSent: () => Effect.die("not used")
  })
)

class Shop extends Context.Service<Shop, { readonly url: string }>()("test/web/ProductionShop") {}

/** The HTTP server as production runs it (no sandbox), its gift pictures from the Bot API above. */
const shopLayer = Layer.unwrap(
  Effect.map(Effect.service(BotApi), (bot) => {
    const pictures = Layer.effect(
      GiftPictures,
      makeBotGiftPictures({ apiUrl: bot.url, token: Redacted.make(TOKEN) })
    ).pipe(Layer.provide(NodeHttpClient.layerUndici))
    // PUBLIC_URL is the shop's public name: the list says it, the page loads from wherever it was opened.
    const catalog = GiftCatalog.layerWith({ publicUrl: "https://shop.example" }).pipe(
      Layer.provide(Layer.mergeAll(MtcuteLike, pictures))
    )
    const settings = HttpConfig.layerTest({
      sandbox: false,
      botToken: Redacted.make(TOKEN),
      telegramApiUrl: bot.url,
      botUsername: "resale_shop_bot"
    })
    const app = httpApp({ routes: WebUi, known: WEB_ROUTES }).pipe(
      Layer.provide(HttpServices),
      Layer.provide([catalog, FragmentSandbox.layer(), settings, DatabasePing.layer])
    )
    const served = serveLean(app, { logRequests: false }).pipe(
      Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
    )
    return Layer.effect(Shop)(
      Effect.gen(function* () {
        const address = (yield* HttpServer.HttpServer).address
        if (address._tag === "UnixPathAddress") return yield* Effect.die("not a TCP server")
        return Shop.of({ url: `http://127.0.0.1:${address.port}` })
      })
    ).pipe(Layer.provide(served))
  })
).pipe(
  Layer.provide(IsolatedPostgres.layerStore),
  Layer.provideMerge(botApiLayer),
  // The server's start line and request logs would clutter the output; warnings and errors still show.
  Layer.provide(Layer.succeed(References.MinimumLogLevel)("Warn"))
) as Layer.Layer<Shop | BotApi, unknown>

/** Telegram's own images, drawn by the browser: 128 px WEBP thumbnails and a 96 px JPEG. */
const drawPictures = (page: Page) =>
  page.evaluate(() => {
    const draw = (size: number, colour: string, type: string) => {
      const canvas = document.createElement("canvas")
      canvas.width = size
      canvas.height = size
      const g = canvas.getContext("2d")!
      // A JPEG has no transparency: white around the picture, as Telegram's JPEG thumbnails have.
      if (type === "image/jpeg") {
        g.fillStyle = "#ffffff"
        g.fillRect(0, 0, size, size)
      }
      g.fillStyle = colour
      g.beginPath()
      g.arc(size / 2, size / 2, size / 2.4, 0, Math.PI * 2)
      g.fill()
      return canvas.toDataURL(type).split(",")[1]!
    }
    return {
      heart: draw(128, "#e0245e", "image/webp"),
      rose: draw(128, "#c2185b", "image/webp"),
      teddy: draw(96, "#8d6e63", "image/jpeg")
    }
  })

/** Signs in as production does: the home page's widget callback (its state) with fields signed by the bot token. */
const signInWithTelegram = async (page: Page, telegramId: number) => {
  await page.goto("/v2/")
  const authUrl = await page.locator("script[data-auth-url]").getAttribute("data-auth-url")
  const state = new URL(authUrl!).searchParams.get("state")!
  const fields: Record<string, string> = {
    id: String(telegramId),
    first_name: "Dilnoza",
    username: `dilnoza_${telegramId}`,
    auth_date: String(Math.floor(Date.now() / 1000))
  }
  const query = new URLSearchParams({ ...fields, hash: loginHash(fields, TOKEN), state })
  await page.goto(`/v2/auth/messenger/callback?${query}`)
  await page.waitForURL("**/v2/dashboard")
}

layer(shopLayer, { timeout: "120 seconds", excludeTestServices: true })("production gift pictures", (it) => {
  it.effect("the gifts page at 360 px shows Telegram's pictures from the shop's own address", () =>
    Effect.gen(function* () {
      const { url } = yield* Shop
      const bot = yield* BotApi
      const b = yield* browser
      yield* Effect.promise(async () => {
        const { context, page } = await person(b, url, { locale: "uz-UZ", viewport: PHONE })
        const drawn = await drawPictures(page)
        for (const [name, base64] of Object.entries(drawn))
          bot.files[name as keyof Files] = Buffer.from(base64, "base64")
        await signInWithTelegram(page, 7_000_001)
        assert.strictEqual(await page.locator(".sandbox").count(), 0, "production: no sandbox banner")
        // From here on (the sign-in page loads Telegram's widget script): every request the browser makes.
        const hosts = new Set<string>()
        context.on("request", (request) => hosts.add(new URL(request.url()).host))

        await page.goto("/v2/gifts")
        const tiles = page.locator("#send-gift .gift")
        assert.strictEqual(await tiles.count(), 4)
        const seen: Record<string, { src: string; width: number; name: string }> = {}
        for (const id of [HEART, ROSE, TEDDY, ROCKET]) {
          const tile = page.locator(`[data-gift-id="${id}"]`)
          const img = tile.locator("img.gift-picture")
          // Lazy images load once on screen: each is brought into view, then must have drawn.
          await img.scrollIntoViewIfNeeded()
          await page.waitForFunction((el) => (el as HTMLImageElement).complete, await img.elementHandle())
          const [src, width] = await img.evaluate(
            (el) => [el.getAttribute("src")!, (el as HTMLImageElement).naturalWidth] as const
          )
          seen[id] = { src, width, name: await tile.locator(".gift-name").innerText() }
        }
        assert.deepStrictEqual(seen, {
          [HEART]: { src: `/v2/gift-pictures/${HEART}`, width: 128, name: "Yurak" },
          [ROSE]: { src: `/v2/gift-pictures/${ROSE}`, width: 128, name: "Atirgul" },
          [TEDDY]: { src: `/v2/gift-pictures/${TEDDY}`, width: 96, name: "Ayiqcha" },
          // Animated without a thumbnail: no picture from Telegram, the shop's gift box instead.
          [ROCKET]: { src: "/v2/static/icon.svg", width: seen[ROCKET]!.width, name: "Raketa" }
        })
        assert.isAbove(seen[ROCKET]!.width, 0)
        assert.isAtMost(
          await page.evaluate(() => document.documentElement.scrollWidth),
          PHONE.width,
          "no sideways scrolling"
        )
        await page.evaluate(() => window.scrollTo(0, 0))
        await screenshot(page, "gifts-production-uz-360")

        // The browser asked only the shop; the shop asked the Bot API for the list once and each picture once.
        assert.deepStrictEqual([...hosts], [new URL(url).host])
        assert.deepStrictEqual(bot.asked.filter((u) => u.endsWith("getAvailableGifts")).length, 1)
        assert.deepStrictEqual(bot.asked.filter((u) => u.startsWith("/file/")).sort(), [
          "/file/bot<token>/stickers/file_3.webp",
          "/file/bot<token>/thumbnails/file_7.webp",
          "/file/bot<token>/thumbnails/file_9.jpg"
        ])
        assert.notInclude(await page.content(), TOKEN)

        // A desktop in Russian: the same pictures, from the server's memory (Telegram is not asked again).
        const before = bot.asked.length
        const desktop = await person(b, url, { locale: "ru-RU", viewport: DESKTOP })
        await signInWithTelegram(desktop.page, 7_000_002)
        await desktop.page.goto("/v2/gifts")
        const widths = await desktop.page.locator(".gift").evaluateAll((tiles) =>
          Promise.all(
            tiles.map((tile) => {
              const img = tile.querySelector("img")!
              return img.decode().then(
                () => [tile.getAttribute("data-gift-id"), img.naturalWidth] as const,
                () => [tile.getAttribute("data-gift-id"), 0] as const
              )
            })
          )
        )
        assert.deepStrictEqual(Object.fromEntries(widths.filter(([id]) => id !== ROCKET)), {
          [HEART]: 128,
          [ROSE]: 128,
          [TEDDY]: 96
        })
        assert.include(await desktop.page.locator(".gift-name").allInnerTexts(), "Сердце")
        assert.strictEqual(bot.asked.length, before)
        await screenshot(desktop.page, "gifts-production-ru-1280")
      })
    })
  )
})
