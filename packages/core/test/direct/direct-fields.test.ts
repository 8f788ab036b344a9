import { assert, describe, it } from "@effect/vitest"
import { DirectPurchaseError } from "../../src/direct/DirectPurchaseError.ts"
import {
  type Fields,
  parsePremium,
  parseStars,
  parseTonTopup,
  parseTransfer,
  parseWalletInfo
} from "../../src/direct/DirectRequests.ts"
import { parseWalletReport, parseWalletStars, parseWalletStatus } from "../../src/direct/WalletRequests.ts"

// Placeholder words, not a phrase of any wallet.
const words24 = Array.from({ length: 24 }, (_, i) => ["alpha", "bravo", "delta", "echo"][i % 4]).join(" ")
const words12 = words24.split(" ").slice(0, 12).join(" ")
const account = { address: "0:ab", publicKey: "cd", walletStateInit: "ef" }

const stars = { username: "someone", amount: 50, seed: words12 }
const premium = { username: "someone", duration: 3, seed: words24 }
const topup = { username: "someone", amount: 2, seed: words24 }
const transfer = { to: "EQ-anything", amount: "1.5", seed: words24 }

const codeOf = (r: unknown) => (r instanceof DirectPurchaseError ? `${r.reason}: ${r.message}` : "ok")
const invalid = (message: string) => `InvalidRequest: ${message}`

type Case = readonly [parse: (fields: Fields) => unknown, fields: Fields, code: string]

// Each way each field fails, and the coded error it answers (the answers' messages, unchanged).
const cases: ReadonlyArray<Case> = [
  [parseStars, { ...stars, username: undefined }, invalid("username is required")],
  [parseStars, { ...stars, username: null }, invalid("username is required")],
  [parseStars, { ...stars, username: "" }, invalid("username is required")],
  [parseStars, { ...stars, username: 7 }, invalid("username must be a string")],
  [
    parseStars,
    { ...stars, username: "no way" },
    invalid("username must be a Telegram username: 4 to 32 letters, digits or _, starting with a letter")
  ],
  [parseStars, { ...stars, amount: undefined }, invalid("amount is required: the number of stars")],
  [parseStars, { ...stars, amount: "" }, invalid("amount is required: the number of stars")],
  [parseStars, { ...stars, amount: 50.5 }, invalid("amount must be a whole number of stars")],
  [parseStars, { ...stars, amount: "5O" }, invalid("amount must be a whole number of stars")],
  [parseStars, { ...stars, amount: true }, invalid("amount must be a whole number of stars")],
  [parseStars, { ...stars, amount: "49" }, "AmountBelowMinimum: amount must be at least 50 stars"],
  [parseStars, { ...stars, amount: 1_000_001 }, "AmountAboveMaximum: amount must be at most 1000000 stars"],
  [parseStars, { ...stars, amount: undefined, quantity: " 60 " }, "ok"],
  [parseStars, { ...stars, seed: undefined }, invalid("seed is required: the wallet's mnemonic phrase")],
  [parseStars, { ...stars, seed: ["alpha"] }, invalid("seed must be a string of words separated by spaces")],
  [parseStars, { ...stars, seed: "alpha bravo" }, invalid("seed must be a mnemonic phrase of 12 or 24 words")],
  [parseStars, { ...stars, order_id: -1 }, invalid("order_id must be 1 to 128 letters, digits or _ . : -")],
  [parseStars, { ...stars, order_id: "a b" }, invalid("order_id must be 1 to 128 letters, digits or _ . : -")],
  [
    parseStars,
    { ...stars, order_id: words12.replaceAll(" ", "-") },
    invalid("order_id must not contain the mnemonic phrase")
  ],
  [parseStars, { ...stars, wallet_version: "v3" }, invalid("wallet_version must be v4r2 or v5r1")],
  [parseStars, { ...stars, version: 4 }, invalid("wallet_version must be v4r2 or v5r1")],
  [parsePremium, { ...premium, duration: null }, invalid("duration is required: 3, 6 or 12 months")],
  [parsePremium, { ...premium, duration: "4" }, invalid("duration must be 3, 6 or 12 months")],
  [parsePremium, { ...premium, duration: undefined, months: "x" }, invalid("duration must be 3, 6 or 12 months")],
  [parsePremium, { ...premium, seed: words12 }, invalid("seed must be a mnemonic phrase of 24 words")],
  [parseTonTopup, { ...topup, amount: undefined }, invalid("amount is required")],
  [parseTonTopup, { ...topup, amount: "2.5" }, invalid("amount must be a whole number of TON from 1 to 1000000")],
  [parseTonTopup, { ...topup, amount: 1_000_001 }, invalid("amount must be a whole number of TON from 1 to 1000000")],
  [parseTransfer, { ...transfer, to: "" }, invalid("to is required: the recipient's wallet address")],
  [parseTransfer, { ...transfer, to: 5 }, invalid("to must be a TON address")],
  [parseTransfer, { ...transfer, to: "x".repeat(101) }, invalid("to must be a TON address")],
  [parseTransfer, { ...transfer, to: undefined, address: "EQ-other" }, "ok"],
  [parseTransfer, { ...transfer, amount: "0.0000000001" }, invalid("amount has more than 9 decimals")],
  [parseTransfer, { ...transfer, amount: "9".repeat(20) }, invalid("amount is too large")],
  [parseTransfer, { ...transfer, amount: "-1" }, invalid("amount must be a positive number of TON")],
  [parseTransfer, { ...transfer, amount: {} }, invalid("amount must be a positive number of TON")],
  [parseTransfer, { ...transfer, amount: 0 }, invalid("amount must be greater than 0")],
  [parseTransfer, { ...transfer, comment: 5 }, invalid("comment must be a string")],
  [parseTransfer, { ...transfer, comment: "x".repeat(501) }, invalid("comment must be at most 500 characters")],
  [parseTransfer, { ...transfer, comment: `keep ${words24}` }, invalid("comment must not contain the mnemonic phrase")],
  [parseWalletInfo, { seed: words24, version: "W5" }, "ok"],
  [parseWalletInfo, { seed: words24, wallet_version: "v6" }, invalid("wallet_version must be v4r2 or v5r1")],
  [
    parseWalletStars,
    { account, username: "someone", quantity: 10 },
    "AmountBelowMinimum: amount must be at least 50 stars"
  ],
  [
    parseWalletStars,
    { account: [account], username: "someone", amount: 50 },
    invalid("account is required: the wallet's TON Connect account {address, publicKey, walletStateInit}")
  ],
  [
    parseWalletStars,
    { account: { ...account, address: "" }, username: "someone", amount: 50 },
    invalid("account.address is required (raw form 0:<64 hex>)")
  ],
  [
    parseWalletStars,
    { account: { ...account, publicKey: 5 }, username: "someone", amount: 50 },
    invalid("account.publicKey is required (64 hex characters)")
  ],
  [
    parseWalletStars,
    { account: { address: "0:ab", public_key: "cd" }, username: "someone", amount: 50 },
    invalid("account.walletStateInit is required (base64 BOC)")
  ],
  [
    parseWalletStars,
    { account, username: "someone", amount: 50, order_id: "a b" },
    invalid("order_id must be 1 to 128 letters, digits or _ . : -")
  ],
  [parseWalletStatus, { address: "0:ab" }, invalid("order_id is required: the id the quote answered")],
  [
    parseWalletStatus,
    { order_id: "o-1", account: { address: "" } },
    invalid("address is required: the wallet the order was quoted for")
  ],
  [
    parseWalletReport,
    { order_id: "o-1", address: "0:ab", boc: "not base64!" },
    invalid("boc is required: the signed message as TON Connect's sendTransaction answered it (base64)")
  ]
]

describe("DirectFields", () => {
  it("answers each field's failure with its coded error", () => {
    for (const [parse, fields, code] of cases) assert.strictEqual(codeOf(parse(fields)), code, JSON.stringify(fields))
  })

  it("checks a purchase's fields in order: username, own field, seed, order id, version", () => {
    const allWrong = { username: "?", amount: "x", seed: 1, order_id: "a b", wallet_version: "v3" }
    const fixed = [
      ["username", "someone"],
      ["amount", 50],
      ["seed", words12],
      ["order_id", words12.replaceAll(" ", ".")], // an id holding the phrase: refused before the version
      ["order_id", "o-1"]
    ] as const
    const answers = [codeOf(parseStars(allWrong))]
    let fields: Fields = allWrong
    for (const [name, value] of fixed) {
      fields = { ...fields, [name]: value }
      answers.push(codeOf(parseStars(fields)))
    }
    assert.deepStrictEqual(answers, [
      invalid("username must be a Telegram username: 4 to 32 letters, digits or _, starting with a letter"),
      invalid("amount must be a whole number of stars"),
      invalid("seed must be a string of words separated by spaces"),
      invalid("order_id must be 1 to 128 letters, digits or _ . : -"),
      invalid("order_id must not contain the mnemonic phrase"),
      invalid("wallet_version must be v4r2 or v5r1")
    ])
  })

  it("reads the wallet road's account with its snake_case spellings, and the quoted wallet from the account first", () => {
    const quote = parseWalletStars({
      account: { address: "0:ab", public_key: "cd", wallet_state_init: "ef", chain: "-239" },
      username: "@someone",
      quantity: "60"
    })
    assert.deepStrictEqual(quote, {
      account: { address: "0:ab", publicKey: "cd", walletStateInit: "ef" },
      orderId: undefined,
      username: "someone",
      quantity: 60,
      kind: "stars"
    })
    assert.deepStrictEqual(parseWalletStatus({ order_id: 7, account: { address: "0:ab" }, address: "0:cd" }), {
      address: "0:ab",
      orderId: "7"
    })
    assert.deepStrictEqual(parseWalletStatus({ order_id: "o-1", account: { address: "" }, address: "0:cd" }), {
      address: "0:cd",
      orderId: "o-1"
    })
  })

  it("never echoes a field's value in its message", () => {
    const secret = "alpha-bravo-secret"
    const failures = [
      parseStars({ ...stars, username: `${secret} x` }),
      parseStars({ ...stars, amount: secret }),
      parsePremium({ ...premium, duration: secret }),
      parseStars({ ...stars, seed: `${secret} word` }),
      parseStars({ ...stars, order_id: `${secret} x` }),
      parseStars({ ...stars, wallet_version: secret }),
      parseTransfer({ ...transfer, amount: secret }),
      parseTransfer({ ...transfer, to: secret.repeat(10) })
    ]
    for (const failure of failures) {
      assert(failure instanceof DirectPurchaseError)
      assert.notInclude(failure.message, "secret")
    }
  })
})
