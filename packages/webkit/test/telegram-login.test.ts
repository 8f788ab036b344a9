import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import { createHash, createHmac } from "node:crypto"
import { dataCheckString, DEFAULT_LOGIN_MAX_AGE_SECONDS, loginHash, verifyTelegramLogin } from "../src/TelegramLogin.ts"

// Vectors computed independently here from the documented algorithm (not with the module under test).
const BOT_TOKEN = "110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
const sign = (fields: Record<string, string>) => {
  const check = Object.keys(fields)
    .sort()
    .map((k) => `${k}=${fields[k]}`)
    .join("\n")
  const secret = createHash("sha256").update(BOT_TOKEN).digest()
  return { ...fields, hash: createHmac("sha256", secret).update(check).digest("hex") }
}
const now = new Date("2026-03-01T12:00:00Z")
const authDate = String(Math.floor(now.getTime() / 1000) - 60)
const widget = {
  id: "424242",
  first_name: "Ann",
  username: "ann_uz",
  photo_url: "https://t.me/i/userpic/320/a.jpg",
  auth_date: authDate
}

describe("Telegram Login Widget check", () => {
  it("builds the data-check-string from the sorted fields without the hash", () => {
    assert.strictEqual(
      dataCheckString({ username: "u", id: "1", hash: "x", auth_date: "5" }),
      "auth_date=5\nid=1\nusername=u"
    )
  })

  it("matches a hash computed from the documented algorithm", () => {
    const signed = sign(widget)
    assert.strictEqual(loginHash(signed, BOT_TOKEN), signed.hash)
    const result = verifyTelegramLogin(signed, BOT_TOKEN, now)
    assert.isTrue(Result.isSuccess(result))
    if (Result.isSuccess(result)) {
      assert.strictEqual(result.success.telegramId, 424242)
      assert.strictEqual(result.success.username, "ann_uz")
      assert.strictEqual(result.success.photoUrl, widget.photo_url)
    }
  })

  it("accepts the hash in upper case (hex compare is case-insensitive)", () => {
    const signed = sign(widget)
    assert.isTrue(Result.isSuccess(verifyTelegramLogin({ ...signed, hash: signed.hash.toUpperCase() }, BOT_TOKEN, now)))
  })

  it("refuses a tampered field", () => {
    const signed = sign(widget)
    for (const [key, value] of [
      ["id", "424243"],
      ["username", "mallory"],
      ["auth_date", String(Number(authDate) + 1)]
    ]) {
      const result = verifyTelegramLogin({ ...signed, [key!]: value! }, BOT_TOKEN, now)
      assert.deepStrictEqual(result, Result.fail("BadHash"), `tampered ${key}`)
    }
    const added = verifyTelegramLogin({ ...signed, last_name: "X" }, BOT_TOKEN, now)
    assert.deepStrictEqual(added, Result.fail("BadHash"))
  })

  it("refuses data signed with another bot's token", () => {
    const signed = sign(widget)
    assert.deepStrictEqual(verifyTelegramLogin(signed, "999:other-token", now), Result.fail("BadHash"))
  })

  it("refuses a stale auth_date (older than 10 minutes by default) even with a valid hash", () => {
    const stale = sign({
      ...widget,
      auth_date: String(Math.floor(now.getTime() / 1000) - DEFAULT_LOGIN_MAX_AGE_SECONDS - 1)
    })
    assert.deepStrictEqual(verifyTelegramLogin(stale, BOT_TOKEN, now), Result.fail("Stale"))
    const edge = sign({
      ...widget,
      auth_date: String(Math.floor(now.getTime() / 1000) - DEFAULT_LOGIN_MAX_AGE_SECONDS)
    })
    assert.isTrue(Result.isSuccess(verifyTelegramLogin(edge, BOT_TOKEN, now)))
    // A longer window when configured so.
    const hourOld = sign({ ...widget, auth_date: String(Math.floor(now.getTime() / 1000) - 3600) })
    assert.deepStrictEqual(verifyTelegramLogin(hourOld, BOT_TOKEN, now), Result.fail("Stale"))
    assert.isTrue(Result.isSuccess(verifyTelegramLogin(hourOld, BOT_TOKEN, now, 7200)))
    const future = sign({ ...widget, auth_date: String(Math.floor(now.getTime() / 1000) + 3600) })
    assert.deepStrictEqual(verifyTelegramLogin(future, BOT_TOKEN, now), Result.fail("Stale"))
  })

  it("refuses missing hash or fields", () => {
    assert.deepStrictEqual(verifyTelegramLogin(widget, BOT_TOKEN, now), Result.fail("MissingHash"))
    const { id: _id, ...noId } = widget
    assert.deepStrictEqual(verifyTelegramLogin(sign(noId), BOT_TOKEN, now), Result.fail("MissingField"))
  })
})
