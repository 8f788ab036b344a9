import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import type { OutboxEvent, OutboxKind } from "../src/outbox/OutboxEvent.ts"
import type { OutboxEventId, UserId } from "../src/ids.ts"
import {
  attemptErrorText,
  BASE_DELAY_MS,
  MAX_DELAY_MS,
  RETRY_WINDOW_MS,
  retryDelayMs
} from "../src/webhooks/WebhookDispatch.ts"
import { webhookBody, webhookEventsOf } from "../src/webhooks/WebhookEvents.ts"
import { checkWebhookUrl, isPublicAddress } from "../src/webhooks/WebhookTargets.ts"

const event = (kind: OutboxKind, payload: OutboxEvent["payload"], userId: number | null = 3): OutboxEvent => ({
  id: 11 as OutboxEventId,
  kind,
  userId: userId as UserId | null,
  payload,
  status: "pending",
  attempts: 0,
  lastError: null,
  availableAt: new Date(0),
  createdAt: new Date(0),
  deliveredAt: null
})

describe("webhook targets", () => {
  const strict = { allowLoopback: false }
  const sandbox = { allowLoopback: true }

  it("https on a public host only; private, loopback, link-local, metadata and local names refused", () => {
    for (const ok of [
      "https://hooks.example.com/in",
      "https://example.com:443/x?y=1",
      "https://8.8.8.8/x",
      "https://[2001:4860::8888]/x"
    ]) {
      assert.isTrue(Result.isSuccess(checkWebhookUrl(ok, strict)), ok)
    }
    for (const bad of [
      "http://hooks.example.com/in",
      "https://example.com:8443/x?y=1",
      "https://8.8.8.8:22/x",
      "ftp://example.com/",
      "https://localhost/x",
      "https://a.localhost/x",
      "https://127.0.0.1/x",
      "https://10.0.0.1/",
      "https://172.16.5.4/",
      "https://192.168.1.1/",
      "https://169.254.169.254/",
      "https://100.64.0.1/",
      "https://0.0.0.0/",
      "https://[::1]/",
      "https://[fe80::1]/",
      "https://[fd00:ec2::254]/",
      "https://[::ffff:10.0.0.1]/",
      "https://metadata.google.internal/",
      "https://intranet/",
      "https://u:p@example.com/",
      "/relative",
      "x".repeat(3000)
    ]) {
      assert.isTrue(Result.isFailure(checkWebhookUrl(bad, strict)), bad)
    }
  })

  it("the sandbox setting admits loopback (http too) and nothing else private", () => {
    assert.isTrue(Result.isSuccess(checkWebhookUrl("http://127.0.0.1:9000/in", sandbox)))
    assert.isTrue(Result.isSuccess(checkWebhookUrl("http://localhost:9000/in", sandbox)))
    assert.isTrue(Result.isFailure(checkWebhookUrl("http://10.0.0.1/in", sandbox)))
    assert.isTrue(Result.isFailure(checkWebhookUrl("http://example.com/in", sandbox)))
  })

  it("a refused loopback target names the sandbox setting, or says production never allows it", () => {
    const inSandbox = { allowLoopback: false, sandbox: true }
    for (const target of ["http://127.0.0.1:9000/in", "http://localhost:9000/in", "https://[::1]/in"]) {
      const sandboxed = checkWebhookUrl(target, inSandbox)
      assert.isTrue(Result.isFailure(sandboxed), target)
      if (Result.isFailure(sandboxed)) {
        assert.strictEqual(sandboxed.failure.reason, "loopback_needs_sandbox_setting")
        assert.include(sandboxed.failure.message, "only on a sandbox server with WEBHOOKS_ALLOW_LOOPBACK=true")
      }
      const production = checkWebhookUrl(target, strict)
      assert.isTrue(Result.isFailure(production), target)
      if (Result.isFailure(production)) {
        assert.strictEqual(production.failure.reason, "loopback_not_in_production")
        assert.include(production.failure.message, "never allowed in production")
      }
    }
    const other = checkWebhookUrl("http://hooks.example.com/in", inSandbox)
    assert.deepStrictEqual(Result.isFailure(other) && other.failure, {
      reason: "not_https",
      message: "url must be https"
    })
  })

  it("address literals", () => {
    assert.isTrue(isPublicAddress("1.1.1.1"))
    assert.isFalse(isPublicAddress("198.18.0.1"))
    assert.isFalse(isPublicAddress("224.0.0.1"))
    assert.isFalse(isPublicAddress("not-an-ip"))
  })
})

describe("webhook events from the outbox", () => {
  // An event written before ids were random (no webhookId) keeps evt_<outbox id>.
  it("order and top-up events map to snake_case webhook events with stable ids; others to none", () => {
    assert.deepStrictEqual(
      webhookEventsOf(event("order.completed", { orderId: 5, kind: "stars", recipient: "durov", txId: "t" })),
      [
        {
          id: "evt_11",
          type: "order.completed",
          data: { order_id: 5, kind: "stars", recipient: "durov", tx_id: "t", delivery: null, fragment_ref: null }
        }
      ]
    )
    assert.deepStrictEqual(
      webhookEventsOf(event("order.failed", { orderId: 5, kind: "premium", recipient: "x", refundedUzs: 900 })).map(
        (e) => [e.id, e.type]
      ),
      [
        ["evt_11", "order.failed"],
        ["evt_11_refund", "order.refunded"]
      ]
    )
    // order.failed carries the order's failure code; events written before it carry null
    const failed = { orderId: 5, kind: "stars", recipient: "x", refundedUzs: 900 }
    assert.deepStrictEqual(
      webhookEventsOf(event("order.failed", { ...failed, errorCode: "already_premium" }))[0]!.data,
      {
        order_id: 5,
        kind: "stars",
        recipient: "x",
        refunded_uzs: 900,
        error_code: "already_premium"
      }
    )
    assert.strictEqual(webhookEventsOf(event("order.failed", failed))[0]!.data["error_code"], null)
    assert.deepStrictEqual(webhookEventsOf(event("topup.paid", { topupId: 2, amountUzs: 5000, balanceUzs: 7000 }))[0], {
      id: "evt_11",
      type: "topup.credited",
      data: { topup_id: 2, amount_uzs: 5000, balance_uzs: 7000 }
    })
    assert.deepStrictEqual(webhookEventsOf(event("ticket.answered", { ticketId: 1 })), [])
    assert.deepStrictEqual(webhookEventsOf(event("order.attention", { orderId: 1 }, null)), [])
  })

  it("the body is {type, timestamp, data}", () => {
    const [e] = webhookEventsOf(event("topup.paid", { topupId: 2, amountUzs: 5000, balanceUzs: 7000 }))
    assert.deepStrictEqual(JSON.parse(webhookBody(e!, new Date(0))), {
      type: "topup.credited",
      timestamp: "1970-01-01T00:00:00.000Z",
      data: { topup_id: 2, amount_uzs: 5000, balance_uzs: 7000 }
    })
  })
})

describe("the delivery log's error text", () => {
  it("is one of a few fixed phrases: DNS failures, private resolutions and refusals read the same", () => {
    assert.strictEqual(attemptErrorText("Refused"), "could not connect")
    assert.strictEqual(attemptErrorText("Unreachable"), "could not connect")
    assert.strictEqual(attemptErrorText("Timeout"), "timed out")
    assert.strictEqual(attemptErrorText("bound"), "timed out")
    assert.strictEqual(attemptErrorText(500), "answered 500")
  })
})

describe("webhook retry schedule", () => {
  it("doubles from 30 s up to 4 h, jittered within its upper half, and gives up after about a day", () => {
    assert.strictEqual(retryDelayMs(1, 0), BASE_DELAY_MS / 2)
    assert.strictEqual(retryDelayMs(1, 1), BASE_DELAY_MS)
    assert.strictEqual(retryDelayMs(3, 1), BASE_DELAY_MS * 4)
    assert.strictEqual(retryDelayMs(30, 1), MAX_DELAY_MS)
    assert.strictEqual(retryDelayMs(30, 0), MAX_DELAY_MS / 2)
    // with the longest delays, attempts stop within the window (about 15 attempts)
    let elapsed = 0
    let attempts = 0
    while (elapsed + retryDelayMs(attempts + 1, 1) <= RETRY_WINDOW_MS) elapsed += retryDelayMs(++attempts, 1)
    assert.isAtLeast(attempts, 10)
    assert.isAtMost(attempts, 20)
  })
})
