/**
 * The signer's own refusals and its account, without a chain: what it refuses is refused before it
 * asks toncenter anything (the endpoint here answers nothing), and the account it hands a quote is the
 * TON Connect `Account` of its wallet (the StateInit makes the address).
 */
import { assert, it } from "@effect/vitest"
import { keyPairFromSeed } from "@ton/crypto"
import { Address, Cell, contractAddress, loadStateInit } from "@ton/ton"
import { randomBytes } from "node:crypto"
import { directClient } from "../src/index.ts"
import { type TonConnectTransaction, walletSigner } from "../src/WalletSigner.ts"

const signerOf = (version: "v4r2" | "v5r1", maxNanoton?: bigint) =>
  walletSigner({
    keys: keyPairFromSeed(randomBytes(32)),
    version,
    toncenter: { endpoint: "http://127.0.0.1:9/api/v2/jsonRPC" },
    direct: directClient("http://127.0.0.1:9"),
    ...(maxNanoton === undefined ? {} : { maxNanoton })
  })

const request = (from: string, over: Partial<TonConnectTransaction> = {}): TonConnectTransaction => ({
  validUntil: Math.floor(Date.now() / 1000) + 600,
  from,
  messages: [{ address: Address.parse(`0:${"11".repeat(32)}`).toString(), amount: "460900000", payload: "" }],
  ...over
})

const refusal = (signing: Promise<string>) =>
  signing.then(
    () => "signed",
    (e: Error) => e.message
  )

it("the account is the wallet's TON Connect Account: raw address, public key, a StateInit that makes the address", () => {
  for (const version of ["v4r2", "v5r1"] as const) {
    const signer = signerOf(version)
    const init = loadStateInit(Cell.fromBase64(signer.account.walletStateInit).beginParse())
    assert.strictEqual(contractAddress(0, init).toRawString(), signer.account.address)
    assert.match(signer.account.address, /^0:[0-9a-f]{64}$/)
    assert.match(signer.account.publicKey, /^[0-9a-f]{64}$/)
    assert.strictEqual(signer.account.chain, "-239")
  }
})

it("refuses, before asking the chain, a request for another wallet, one past validUntil, one above its limit", async () => {
  const signer = signerOf("v5r1", 100_000_000n)
  const other = signerOf("v5r1")
  assert.match(await refusal(signer.sign(request(other.account.address))), /not this wallet/)
  const past = request(signer.account.address, { validUntil: Math.floor(Date.now() / 1000) - 1 })
  assert.match(await refusal(signer.sign(past)), /expired/)
  assert.match(await refusal(signer.sign(request(signer.account.address))), /more than this signer's limit/)
  assert.match(await refusal(signer.sign(request(signer.account.address, { messages: [] }))), /no messages/)
})
