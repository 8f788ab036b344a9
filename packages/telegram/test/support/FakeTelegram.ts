/**
 * A stand-in for Telegram's servers under mtcute: the real `TelegramClient` (high-level methods,
 * peer resolution, message parsing) over a real `BaseTelegramClient` on in-memory storage whose
 * `call` is answered here with TL objects, the way mtcute's own test stubs intercept it. It keeps
 * the gifts it was paid for, and can refuse or lose answers.
 */
import { BaseTelegramClient, Long, MemoryStorage, TelegramClient, tl } from "@mtcute/node"

export interface FakeGift {
  readonly id: string
  readonly stars: number
  readonly title?: string
  readonly remains?: number
  readonly total?: number
  readonly soldOut?: boolean
}

interface Sent {
  readonly messageId: number
  readonly userId: number
  readonly giftId: string
  readonly message: string | null
  readonly hideName: boolean
  readonly date: number
}

const user = (id: number, username: string): tl.RawUser => ({
  _: "user",
  id,
  accessHash: Long.fromNumber(id * 7),
  username,
  firstName: username
})

const starGift = (gift: FakeGift): tl.RawStarGift =>
  ({
    _: "starGift",
    id: Long.fromString(gift.id),
    stars: Long.fromNumber(gift.stars),
    convertStars: Long.fromNumber(Math.floor(gift.stars * 0.85)),
    sticker: { _: "documentEmpty", id: Long.ZERO },
    ...(gift.title === undefined ? {} : { title: gift.title }),
    ...(gift.remains === undefined
      ? {}
      : { limited: true, availabilityRemains: gift.remains, availabilityTotal: gift.total ?? gift.remains }),
    ...(gift.soldOut === true ? { soldOut: true } : {})
  }) as tl.RawStarGift

export class FakeTelegram {
  readonly users = new Map<string, number>()
  readonly sent: Array<Sent> = []
  readonly calls: Array<string> = []
  /** Next sendStarsForm: an RPC error, or "lose" (executed, then the connection drops). */
  readonly sendFaults: Array<{ readonly code: number; readonly text: string } | "lose"> = []
  stars = 10_000
  private nextMessage = 100
  private readonly gifts: ReadonlyArray<FakeGift>

  constructor(gifts: ReadonlyArray<FakeGift>) {
    this.gifts = gifts
  }

  addUser(username: string): number {
    const id = 5_000 + this.users.size
    this.users.set(username.toLowerCase(), id)
    return id
  }

  private usernameOf(id: number): string {
    for (const [name, uid] of this.users) if (uid === id) return name
    throw new tl.RpcError(400, "PEER_ID_INVALID")
  }

  private peerUserId(peer: tl.TypeInputPeer): number {
    if (peer._ === "inputPeerUser") return peer.userId
    throw new tl.RpcError(400, "PEER_ID_INVALID")
  }

  readonly call = async (request: tl.RpcMethod): Promise<unknown> => {
    this.calls.push(request._)
    switch (request._) {
      case "contacts.resolveUsername": {
        const id = this.users.get(request.username.toLowerCase())
        if (id === undefined) throw new tl.RpcError(400, "USERNAME_NOT_OCCUPIED")
        return {
          _: "contacts.resolvedPeer",
          peer: { _: "peerUser", userId: id },
          users: [user(id, request.username)],
          chats: []
        }
      }
      case "payments.getStarGifts":
        return { _: "payments.starGifts", hash: 1, gifts: this.gifts.map(starGift), users: [], chats: [] }
      case "payments.getPaymentForm": {
        const invoice = request.invoice as tl.RawInputInvoiceStarGift
        const gift = this.gifts.find((g) => g.id === invoice.giftId.toString())
        if (gift === undefined) throw new tl.RpcError(400, "STARGIFT_INVALID")
        if (gift.soldOut === true) throw new tl.RpcError(400, "STARGIFT_USAGE_LIMITED")
        return {
          _: "payments.paymentFormStarGift",
          formId: Long.fromNumber(this.nextMessage),
          invoice: { _: "invoice", currency: "XTR", prices: [] }
        }
      }
      case "payments.sendStarsForm": {
        const invoice = request.invoice as tl.RawInputInvoiceStarGift
        const fault = this.sendFaults.shift()
        if (fault !== undefined && fault !== "lose") throw new tl.RpcError(fault.code, fault.text)
        const gift = this.gifts.find((g) => g.id === invoice.giftId.toString())!
        if (this.stars < gift.stars) throw new tl.RpcError(400, "BALANCE_TOO_LOW")
        this.stars -= gift.stars
        this.sent.push({
          messageId: ++this.nextMessage,
          userId: this.peerUserId(invoice.peer),
          giftId: gift.id,
          message: invoice.message?.text ?? null,
          hideName: invoice.hideName === true,
          date: Math.floor(Date.now() / 1000)
        })
        if (fault === "lose") throw new Error("connection reset by peer")
        return {
          _: "payments.paymentResult",
          updates: { _: "updates", updates: [], users: [], chats: [], date: 0, seq: 0 }
        }
      }
      case "messages.getHistory": {
        const userId = this.peerUserId(request.peer)
        const messages = this.sent
          .filter((s) => s.userId === userId)
          .toReversed()
          .map(
            (s): tl.RawMessageService =>
              ({
                _: "messageService",
                id: s.messageId,
                out: true,
                peerId: { _: "peerUser", userId },
                date: s.date,
                action: {
                  _: "messageActionStarGift",
                  gift: starGift(this.gifts.find((g) => g.id === s.giftId)!),
                  nameHidden: s.hideName,
                  ...(s.message === null ? {} : { message: { _: "textWithEntities", text: s.message, entities: [] } })
                } as tl.RawMessageActionStarGift
              }) as tl.RawMessageService
          )
        return {
          _: "messages.messages",
          messages,
          users: [user(userId, this.usernameOf(userId))],
          chats: [],
          topics: []
        }
      }
      default:
        throw new tl.RpcError(400, `METHOD_NOT_FAKED_${request._}`)
    }
  }

  /** A TelegramClient of one sender account whose calls reach this fake. */
  async client(): Promise<TelegramClient> {
    const base = new BaseTelegramClient({ apiId: 1, apiHash: "0".repeat(32), storage: new MemoryStorage() })
    await base.prepare()
    ;(base as unknown as { call: FakeTelegram["call"] }).call = this.call
    return new TelegramClient({ client: base, disableUpdates: true })
  }
}
