/**
 * The sandbox world of a data directory as another process meets it: the owner's answer on the
 * world's socket (its loopback toncenter endpoint and its pid), and the faucet that endpoint serves
 * (`sandboxFund`, sandbox only), which is how a bot's wallet gets sandbox coins.
 */
import { worldSocketOf } from "@resale/world/SharedSandbox.ts"
import { Effect } from "effect"
import { connect } from "node:net"

/** What the owner of the world says on its socket. */
export const worldOf = (dataDir: string) =>
  Effect.promise(
    () =>
      new Promise<{ readonly toncenter: string; readonly pid: number }>((resolve, reject) => {
        let text = ""
        const socket = connect(worldSocketOf(dataDir))
        socket.on("data", (chunk) => (text += chunk))
        socket.on("end", () => resolve(JSON.parse(text)))
        socket.on("error", reject)
      })
  )

/** Sandbox coins (nanoton) for `address` from the world's faucet. */
export const fundFromWorld = (toncenter: string, address: string, amount: bigint) =>
  Effect.promise(async () => {
    const res = await fetch(toncenter, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: "1", method: "sandboxFund", params: { address, amount: `${amount}` } })
    })
    const answer = (await res.json()) as { readonly ok: boolean; readonly error?: string }
    if (!answer.ok) throw new Error(`the sandbox faucet refused: ${answer.error}`)
  })

// Settings a developer's shell may carry that would change the world the process uses.
const INHERITED = ["TONCENTER_URL", "FRAGMENT_COOKIES", "FRAGMENT_URL", "HOT_WALLET_MNEMONIC", "TELEGRAM_BOT_TOKEN"]

/** The environment of a sandbox server process: `extra` over the test's own, without outside worlds. */
export const sandboxEnvironment = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of INHERITED) delete env[name]
  return { ...env, SANDBOX: "true", TELEGRAM_API_URL: "http://127.0.0.1:9", ...extra }
}
