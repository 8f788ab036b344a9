/// <reference lib="dom" />
/**
 * The test browser reaches 127.0.0.1 only (support/Browser.ts): a page, a fetch or an image aimed
 * elsewhere is refused by Chromium itself, so no browser test can wait on, or talk to, the network.
 * "Elsewhere" here is a server on 127.0.0.2, which would answer if the browser were allowed to ask.
 */
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { browser, person } from "./support/Browser.ts"

/** A loopback server on `host` that answers every request with a small page and counts them. */
const serve = (host: string) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly server: Server; readonly url: string; readonly hits: () => number }>((resume) => {
      let hits = 0
      const server = createServer((_, response) => {
        hits++
        response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>here</title><h1>here</h1>")
      })
      server.listen(0, host, () =>
        resume(
          Effect.succeed({ server, url: `http://${host}:${(server.address() as AddressInfo).port}`, hits: () => hits })
        )
      )
    }),
    ({ server }) =>
      Effect.callback<void>((resume) => {
        server.close(() => resume(Effect.void))
      })
  )

it.effect(
  "the browser reaches 127.0.0.1 and is refused everywhere else",
  () =>
    Effect.scoped(
      Effect.gen(function* () {
        const home = yield* serve("127.0.0.1")
        const outside = yield* serve("127.0.0.2")
        // The outside server does answer: only the browser is kept from it.
        assert.strictEqual((yield* Effect.promise(() => fetch(outside.url))).status, 200)
        const before = outside.hits()
        const b = yield* browser
        yield* Effect.promise(async () => {
          const { page } = await person(b, home.url)
          assert.strictEqual((await page.goto("/"))?.status(), 200)

          const fetched = await page.evaluate(
            (target) =>
              fetch(target, { mode: "no-cors" }).then(
                () => "answered",
                () => "refused"
              ),
            `${outside.url}/from-script`
          )
          assert.strictEqual(fetched, "refused")
          const image = await page.evaluate(
            (target) =>
              new Promise<string>((resolve) => {
                const img = document.createElement("img")
                img.onload = () => resolve("loaded")
                img.onerror = () => resolve("refused")
                img.src = target
                document.body.append(img)
              }),
            `${outside.url}/pixel.png`
          )
          assert.strictEqual(image, "refused")
          // Last: a refused navigation leaves the tab on Chromium's error page.
          for (const address of [`${outside.url}/`, "http://example.com/", "https://93.184.215.14/"]) {
            const refused = await page.goto(address).then(
              () => "loaded",
              (error: Error) => error.message
            )
            assert.match(refused, /net::ERR_/, address)
          }
        })
        assert.strictEqual(outside.hits(), before, "no request reached the outside server")
        assert.isAbove(home.hits(), 0)
      })
    ),
  60_000
)
