import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, callbackPath, cookieNamed, loginPage, signedLogin, TEST_BOT_TOKEN } from "./Client.ts"
import { pgTestServer, TestServer } from "./TestServer.ts"

const secondsAgo = (seconds: number) => String(Math.floor(Date.now() / 1000) - seconds)
const login = (id: string, username: string, age = 5) =>
  signedLogin(TEST_BOT_TOKEN, { id, first_name: username, username, auth_date: secondsAgo(age) })
const setCookieText = (headers: Record<string, unknown>) => String(headers["set-cookie"] ?? "")

/** Telegram sign-in: a short window, once only, and only in the browser that opened the sign-in page. */
layer(pgTestServer(), { timeout: "60 seconds", excludeTestServices: true })("sign-in", (it) => {
  it.effect("the sign-in page binds the widget's callback to this browser: a state cookie and a matching state", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const page = yield* call(url, "/v2/", { headers: { accept: "text/html" } })
      const cookie = setCookieText(page.headers)
      assert.match(cookie, /resale_login_state=[A-Za-z0-9_-]{32};/)
      assert.match(cookie, /HttpOnly/)
      assert.match(cookie, /SameSite=Lax/)
      assert.match(
        page.text,
        /data-auth-url="http:\/\/127\.0\.0\.1\/v2\/auth\/messenger\/callback\?state=[A-Za-z0-9_-]{43}"/
      )
      // The same browser coming back keeps its cookie and gets the same state.
      const again = yield* call(url, "/v2/", {
        headers: { accept: "text/html" },
        // As a browser does: every cookie the first answer set (the web UI's CSRF cookie too).
        cookie: `${cookieNamed(page, "resale_login_state")}; ${cookieNamed(page, "resale_csrf")}`
      })
      assert.strictEqual(again.headers["set-cookie"], undefined)
      assert.strictEqual(
        /data-auth-url="([^"]+)"/.exec(again.text)?.[1],
        /data-auth-url="([^"]+)"/.exec(page.text)?.[1]
      )
    })
  )

  it.effect("login CSRF: a link carrying someone's payload and state does not sign in another browser", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      // The attacker opens the sign-in page and signs in with Telegram, but sends the link instead of following it.
      const attacker = yield* loginPage(url)
      const link = callbackPath(attacker.callback, login("82001", "mallory"))
      // The victim's browser: no state cookie, or its own one from having seen the sign-in page.
      const victim = yield* loginPage(url)
      for (const cookie of [undefined, victim.cookie]) {
        const answer = yield* call(url, link, cookie === undefined ? {} : { cookie })
        assert.strictEqual(answer.status, 401, answer.text)
        assert.notMatch(setCookieText(answer.headers), /resale_session=/)
      }
      // No state at all (the widget URL of an old page) is refused too.
      const bare = yield* call(url, `/v2/auth/messenger/callback?${new URLSearchParams(login("82001", "mallory"))}`, {
        cookie: victim.cookie
      })
      assert.strictEqual(bare.status, 401)
      // The attacker's own browser can use it (once).
      const own = yield* call(url, link, { cookie: attacker.cookie })
      assert.strictEqual(own.status, 303)
    })
  )

  it.effect("a payload signs in once: a replay (even from the same browser) is 401; the state cookie is cleared", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const { callback, cookie } = yield* loginPage(url)
      const payload = login("82002", "nodira")
      const path = callbackPath(callback, payload)
      const first = yield* call(url, path, { cookie })
      assert.strictEqual(first.status, 303)
      assert.match(setCookieText(first.headers), /resale_session=/)
      assert.match(setCookieText(first.headers), /resale_login_state=;/)
      const replay = yield* call(url, path, { cookie })
      assert.deepStrictEqual(
        [replay.status, replay.json.detail],
        [401, "This Telegram sign-in was already used; sign in again"]
      )
      // From another browser that went through the sign-in page, with the same payload: still used.
      const other = yield* loginPage(url)
      const replayed = yield* call(url, callbackPath(other.callback, payload), { cookie: other.cookie })
      assert.strictEqual(replayed.status, 401)
    })
  )

  it.effect("a payload older than 10 minutes is refused, however valid its signature", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const { callback, cookie } = yield* loginPage(url)
      const old = yield* call(url, callbackPath(callback, login("82003", "aziz", 11 * 60)), { cookie })
      assert.deepStrictEqual([old.status, old.json.detail], [401, "Telegram login data is too old"])
      const fresh = yield* call(url, callbackPath(callback, login("82003", "aziz", 9 * 60)), { cookie })
      assert.strictEqual(fresh.status, 303)
    })
  )

  it.effect("the sandbox sign-in link printed at start still signs in", () =>
    Effect.gen(function* () {
      const { url } = yield* TestServer
      const answer = yield* call(url, "/v2/auth/sandbox?user=demo")
      assert.strictEqual(answer.status, 303)
      const session = cookieNamed(answer, "resale_session")
      assert.strictEqual((yield* call(url, "/v2/balance", { cookie: session })).status, 200)
    })
  )
})

layer(pgTestServer({ loginMaxAgeSeconds: 3600 }), { timeout: "60 seconds", excludeTestServices: true })(
  "sign-in window",
  (it) => {
    it.effect("the window is configurable (LOGIN_MAX_AGE)", () =>
      Effect.gen(function* () {
        const { url } = yield* TestServer
        const { callback, cookie } = yield* loginPage(url)
        const halfHour = yield* call(url, callbackPath(callback, login("82004", "laylo", 30 * 60)), { cookie })
        assert.strictEqual(halfHour.status, 303)
        const hours = yield* call(url, callbackPath(callback, login("82005", "botir", 2 * 3600)), { cookie })
        assert.strictEqual(hours.status, 401)
      })
    )
  }
)
