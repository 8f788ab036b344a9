import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminSignIn, call, PNG, signIn } from "./Client.ts"
import { pgTestServer, TestServer } from "./TestServer.ts"

const upload = (url: string, cookie: string, bytes: Uint8Array, type: string, name: string) => {
  const form = new FormData()
  form.set("amount_uzs", "20000")
  form.set("receipt", new Blob([bytes], { type }), name)
  return call(url, "/v2/balance/top-up/receipt", { body: form, cookie })
}

/** The small edges: static lookups, HSTS, no-store on personal answers, receipts that cannot run. */
layer(pgTestServer({ publicUrl: "https://shop.example" }), {
  timeout: "60 seconds",
  excludeTestServices: true
})("edge headers (https)", (it) => {
  it.effect("static assets are looked up as own files only: constructor and toString are 404s", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
        const answer = yield* call(url, `/v2/static/${name}`)
        assert.strictEqual(answer.status, 404, `${name}: ${answer.text}`)
      }
      assert.strictEqual((yield* call(url, "/v2/static/app.js")).status, 200)
    })
  )

  it.effect("HSTS on every answer when PUBLIC_URL is https, errors and 413s included", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      for (const path of ["/v2/", "/v2/api/pricing", "/healthz", "/v2/nowhere", "/v2/static/app.js"]) {
        const answer = yield* call(url, path)
        assert.strictEqual(answer.headers["strict-transport-security"], "max-age=31536000; includeSubDomains", path)
      }
      const tooLarge = yield* call(url, "/v2/balance/top-up", { form: { pad: "x".repeat(70_000) } })
      assert.strictEqual(tooLarge.status, 413)
      assert.isString(tooLarge.headers["strict-transport-security"])
    })
  )

  it.effect(
    "Cache-Control: no-store on the shown-once API key and every personal answer; assets keep their caching",
    () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const cookie = yield* signIn(url, 87001, "headers_user")
        const key = yield* call(url, "/v2/api-key/rotate", { method: "POST", cookie })
        assert.isString(key.json.api_key)
        assert.strictEqual(key.headers["cache-control"], "no-store")
        const apiKey = key.json.api_key as string
        for (const [path, options] of [
          ["/v2/dashboard", { cookie }],
          ["/v2/balance", { cookie }],
          ["/v2/api/balance", { headers: { "x-api-key": apiKey } }],
          ["/v2/tickets", { cookie }]
        ] as const) {
          const answer = yield* call(url, path, options)
          assert.strictEqual(answer.status, 200, path)
          assert.strictEqual(answer.headers["cache-control"], "no-store", path)
        }
        const asset = yield* call(url, "/v2/static/app.js")
        assert.strictEqual(asset.headers["cache-control"], "no-cache")
      })
  )

  it.effect("receipts never run as a page of this site: sandbox CSP, nosniff, a PDF is an attachment", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const cookie = yield* signIn(url, 87002, "receipts_user")
      const image = (yield* upload(url, cookie, PNG, "image/png", "r.png")).json
      const pdf = (yield* upload(
        url,
        cookie,
        new Uint8Array(Buffer.from("%PDF-1.7\n%test")),
        "application/pdf",
        "r.pdf"
      )).json
      const admin = yield* adminSignIn(url)
      for (const viewer of [cookie, admin]) {
        const png = yield* call(url, `/v2/receipts/${image.topup_id}`, { cookie: viewer })
        assert.strictEqual(png.status, 200)
        assert.strictEqual(png.headers["content-disposition"], "inline")
        assert.match(String(png.headers["content-security-policy"]), /^sandbox;/)
        assert.strictEqual(png.headers["x-content-type-options"], "nosniff")
        const doc = yield* call(url, `/v2/receipts/${pdf.topup_id}`, { cookie: viewer })
        assert.strictEqual(doc.status, 200)
        assert.strictEqual(doc.headers["content-type"], "application/pdf")
        assert.strictEqual(doc.headers["content-disposition"], `attachment; filename="receipt-${pdf.topup_id}.pdf"`)
        assert.match(String(doc.headers["content-security-policy"]), /^sandbox;/)
      }
    })
  )
})

layer(pgTestServer(), { timeout: "60 seconds", excludeTestServices: true })("edge headers (http)", (it) => {
  it.effect("no HSTS when the public address is plain http", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      assert.strictEqual((yield* call(url, "/v2/")).headers["strict-transport-security"], undefined)
    })
  )
})
