/**
 * A sandbox chain that loses payments on purpose: the node accepts the wallet's message, but it never
 * executes (as a message that missed its validity window would), so the wallet's seqno stays and the
 * payment expires unpaid. Which payments are lost is the sandbox Fragment's to say (its test recipient
 * `sandbox_lost_payment`), by the comment of the payment; this file only runs the message on a copy
 * and keeps the result or drops it.
 */
import type { Blockchain as Emulator } from "@ton/sandbox"
import type { Cell } from "@ton/ton"
import { commentOf } from "./SandboxPayments.ts"

/** True for a payment comment whose payment is to be lost. */
export type DropRule = (comment: string) => boolean

export interface DroppingSender {
  /** Runs an external message on the emulator, unless it pays something the rule drops. */
  readonly send: (message: Cell) => Promise<void>
  readonly setRule: (rule: DropRule | undefined) => void
}

export const droppingSender = (emulator: Emulator): DroppingSender => {
  let rule: DropRule | undefined
  // One message at a time: a drop restores the state from before it, which must not undo another send.
  let queue: Promise<unknown> = Promise.resolve()
  const run = async (message: Cell): Promise<void> => {
    const active = rule
    if (active === undefined) return void (await emulator.sendMessage(message))
    const before = emulator.snapshot()
    const result = await emulator.sendMessage(message)
    const lost = result.transactions.some((tx) => {
      const info = tx.inMessage?.info
      if (tx.inMessage == null || info?.type !== "internal") return false
      const comment = commentOf(tx.inMessage.body)
      return comment !== undefined && active(comment)
    })
    if (lost) await emulator.loadFrom(before)
  }
  return {
    send: (message) => {
      const next = queue.then(() => run(message))
      queue = next.catch(() => undefined)
      return next
    },
    setRule: (next) => void (rule = next)
  }
}
