/// <reference lib="dom" />
/**
 * Webhook endpoints in the browser, at 360 px in Russian and Uzbek: the API page lists the shopper's
 * endpoints and deletes one; replacing the key removes them unless "keep" is ticked (unticked by
 * default); an operator sees them on the user's page with their last delivery and removes one.
 * One server, one browser and one loopback receiver for the whole file.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { createServer, type Server } from "node:http"
import type { Page } from "playwright-core"
import { browser, PHONE, person, screenshot } from "./support/Browser.ts"
import { andWait, shopperName, signInOperator, signInShopper } from "./support/Flows.ts"
import { WebWorld, webWorldLayer } from "./support/WebWorld.ts"

/** A loopback receiver that acknowledges every event; where the file's endpoints point. */
const receiver = Effect.acquireRelease(
  Effect.promise(
    () =>
      new Promise<Server>((resolve) => {
        const server = createServer((req, res) => req.resume().on("end", () => res.writeHead(204).end()))
        server.listen(0, "127.0.0.1", () => resolve(server))
      })
  ),
  (server) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
).pipe(
  Effect.map((server) => {
    const address = server.address()
    return typeof address === "object" && address !== null ? `http://127.0.0.1:${address.port}` : ""
  })
)

const asJson = (url: string) => ({ accept: "application/json", origin: url })

/** A fresh API key for the signed-in shopper (the route the confirmation page posts to). */
const newKey = async (page: Page, url: string): Promise<string> => {
  const answer = await page.request.post("/v2/api-key/rotate", { form: {}, headers: asJson(url) })
  assert.strictEqual(answer.status(), 200, await answer.text())
  return ((await answer.json()) as { api_key: string }).api_key
}

const register = async (url: string, key: string, target: string): Promise<number> => {
  const answer = await fetch(`${url}/v2/api/webhooks`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ url: target, events: ["order.completed", "topup.credited"] })
  })
  assert.strictEqual(answer.status, 200, await answer.clone().text())
  return ((await answer.json()) as { id: number }).id
}

const listed = async (url: string, key: string): Promise<ReadonlyArray<number>> => {
  const answer = await fetch(`${url}/v2/api/webhooks`, { headers: { "x-api-key": key } })
  assert.strictEqual(answer.status, 200)
  return ((await answer.json()) as { webhooks: ReadonlyArray<{ id: number }> }).webhooks.map((w) => w.id)
}

const fitsWidth = async (page: Page) =>
  assert.isAtMost(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 0)

const loopback = { webhooksAllowLoopback: true }

layer(webWorldLayer(loopback, loopback), { timeout: "180 seconds", excludeTestServices: true })(
  "webhook endpoints on the API page and the operator's user page",
  (it) => {
    it.effect("the API page lists the shopper's webhooks and deleting one removes it", () =>
      Effect.gen(function* () {
        const { url } = yield* WebWorld
        const target = yield* receiver
        const b = yield* browser
        yield* Effect.promise(async () => {
          const { page } = await person(b, url, { viewport: PHONE, locale: "ru-RU" })
          await signInShopper(page, shopperName("hooks"))
          const key = await newKey(page, url)
          const first = await register(url, key, `${target}/first`)
          const second = await register(url, key, `${target}/second`)

          await page.goto("/v2/api-docs#webhooks")
          const rows = page.locator("#webhook-list tbody tr")
          assert.strictEqual(await rows.count(), 2)
          assert.include(await page.locator(`#webhook-${first}`).innerText(), `${target}/first`)
          assert.include(await page.locator(`#webhook-${second}`).innerText(), "order.completed, topup.credited")
          await fitsWidth(page)
          await screenshot(page, "api-webhooks-ru-360")

          await andWait(page, () => page.locator(`#webhook-${first}`).getByRole("button", { name: "Удалить" }).click())
          assert.match(page.url(), /\/v2\/api-docs#webhooks$/)
          assert.include(await page.locator("#flash").innerText(), `Вебхук ${first} удалён.`)
          assert.strictEqual(await rows.count(), 1)
          assert.strictEqual(await page.locator(`#webhook-${second}`).count(), 1)
          assert.deepStrictEqual(await listed(url, key), [second])
        })
      })
    )

    it.effect("replacing the key removes the webhooks unless 'keep' is ticked, which it is not by default", () =>
      Effect.gen(function* () {
        const { url } = yield* WebWorld
        const target = yield* receiver
        const b = yield* browser
        yield* Effect.promise(async () => {
          const { page } = await person(b, url, { viewport: PHONE, locale: "uz-UZ" })
          await signInShopper(page, shopperName("rotate"))
          const key = await newKey(page, url)
          const kept = [await register(url, key, `${target}/a`), await register(url, key, `${target}/b`)]

          const rotate = async (keep: boolean): Promise<string> => {
            await page.goto("/v2/api-key/confirm")
            const box = page.locator("#confirm-rotate input[name=keep_webhooks]")
            assert.isFalse(await box.isChecked(), "keeping is never the default")
            if (keep) await box.check()
            await andWait(page, () => page.getByRole("button", { name: "Ha, kalitni almashtirish" }).click())
            return page.locator("#api-key").innerText()
          }

          // Ticked: the new key manages the same endpoints.
          const second = await rotate(true)
          assert.deepStrictEqual(await listed(url, second), kept)
          await page.goto("/v2/api-docs#webhooks")
          assert.strictEqual(await page.locator("#webhook-list tbody tr").count(), 2)

          // Unticked: they go with the old key.
          await screenshot(page, "api-rotate-keep-uz-360")
          const third = await rotate(false)
          assert.deepStrictEqual(await listed(url, third), [])
          await page.goto("/v2/api-docs#webhooks")
          assert.strictEqual(await page.locator("#webhooks #webhook-list").innerText(), "Vebxuklar yoʻq.")
          await fitsWidth(page)
        })
      })
    )

    it.effect("the operator sees the user's webhooks with their last delivery and removes one", () =>
      Effect.gen(function* () {
        const { url } = yield* WebWorld
        const target = yield* receiver
        const b = yield* browser
        yield* Effect.promise(async () => {
          const shopper = await person(b, url, { viewport: PHONE })
          await signInShopper(shopper.page, shopperName("watched"))
          const key = await newKey(shopper.page, url)
          const tested = await register(url, key, `${target}/tested`)
          const quiet = await register(url, key, `${target}/quiet`)
          const sent = await fetch(`${url}/v2/api/webhooks/${tested}/test`, {
            method: "POST",
            headers: { "x-api-key": key }
          })
          assert.strictEqual(sent.status, 200)
          const me = await shopper.page.request.get("/v2/dashboard", { headers: { accept: "application/json" } })
          const userId = ((await me.json()) as { user: { user_id: number } }).user.user_id

          // The shopper cannot use the operator's route.
          const refused = await shopper.page.request.post(`/v2/admin/users/${userId}/webhooks/${quiet}/delete`, {
            form: {},
            headers: asJson(url)
          })
          assert.strictEqual(refused.status(), 401)

          const { page } = await person(b, url, { viewport: PHONE, locale: "uz-UZ" })
          await signInOperator(page)
          await page.goto(`/v2/admin/users/${userId}#user-webhooks`)
          const row = (id: number) => page.locator(`#user-webhooks-table [data-webhook-row="${id}"]`)
          assert.strictEqual(await page.locator("#user-webhooks-table tbody tr").count(), 2)
          assert.include(await row(quiet).innerText(), `${target}/quiet`)
          assert.include(await row(quiet).innerText(), "Hali hodisa bo‘lmagan")
          // The test event reaches the receiver within moments; the page shows it delivered.
          for (let i = 0; i < 50 && (await row(tested).locator('[data-status="delivered"]').count()) === 0; i++) {
            await new Promise((resolve) => setTimeout(resolve, 200))
            await page.reload()
          }
          assert.include(await row(tested).locator('[data-status="delivered"]').innerText(), "Yetkazildi")
          assert.include(await row(tested).innerText(), "webhook.test")
          await fitsWidth(page)
          await screenshot(page, "admin-user-webhooks-uz-360")

          // Removing asks first (a disclosure), then the second click removes.
          const remove = row(quiet).getByRole("button", { name: "Manzilni o‘chirish" })
          assert.isFalse(await remove.isVisible())
          await row(quiet).locator("summary").click()
          await andWait(page, () => remove.click())
          assert.match(page.url(), new RegExp(`/v2/admin/users/${userId}#user-webhooks$`))
          assert.include(await page.locator("#flash").innerText(), `${quiet}-vebxuk o‘chirildi.`)
          assert.strictEqual(await page.locator("#user-webhooks-table tbody tr").count(), 1)
          assert.deepStrictEqual(await listed(url, key), [tested])

          // Someone else's endpoint (or one already gone) is not found, and nothing else is removed.
          const again = await page.request.post(`/v2/admin/users/${userId}/webhooks/${quiet}/delete`, {
            form: {},
            headers: asJson(url)
          })
          assert.strictEqual(again.status(), 404)
          assert.strictEqual(((await again.json()) as { code: string }).code, "webhook_not_found")
          assert.deepStrictEqual(await listed(url, key), [tested])
        })
      })
    )
  }
)
