/**
 * The loopback toncenter of the tests: the sandbox's toncenter server plus a record of the calls and
 * queued faults (rate limit, answer of a sendBoc lost after or before it was applied).
 */
import type { Blockchain as Emulator } from "@ton/sandbox"
import { Effect } from "effect"
import { type SandboxChain, serveSandboxToncenter } from "../../src/SandboxToncenter.ts"

export type SendFault = "lostAfterApply" | "lostBeforeApply"

export interface ToncenterServer {
  readonly url: string
  /** The next this many calls answer HTTP 429, as toncenter does over the key's rate. */
  rateLimitNext: number
  /** Faults applied to the next sendBoc calls, in order. */
  readonly sendFaults: Array<SendFault>
  /** JSON-RPC methods called, and the X-API-Key header of each call. */
  readonly calls: Array<{ readonly method: string; readonly apiKey: string | undefined }>
}

/** Starts on 127.0.0.1 at a random port; stops with the scope. */
export const startToncenterServer = (chain: SandboxChain | Emulator) =>
  Effect.gen(function* () {
    const sandbox = "emulator" in chain ? chain : { emulator: chain, persist: Effect.void }
    const state = { rateLimitNext: 0, sendFaults: [] as Array<SendFault>, calls: [] as ToncenterServer["calls"] }
    const { url } = yield* serveSandboxToncenter(sandbox, {
      intercept: (call) => {
        state.calls.push(call)
        if (state.rateLimitNext > 0) {
          state.rateLimitNext--
          return "rateLimit"
        }
        if (call.method !== "sendBoc") return undefined
        const fault = state.sendFaults.shift()
        return fault === "lostBeforeApply" ? "dropBefore" : fault === "lostAfterApply" ? "dropAfter" : undefined
      }
    })
    return Object.assign(state, { url }) satisfies ToncenterServer
  })
