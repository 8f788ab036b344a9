/**
 * Every environment variable the product reads, in one place: name, default and meaning. The start
 * reads and checks all of them at once (`ReadSettings.ts`); `.env.example` lists exactly these. Each
 * group is declared under `catalogue/`; this list sets their order.
 */
import type * as S from "./Setting.ts"
import { Direct, Limits } from "./catalogue/LimitSettings.ts"
import { Edges, Mode, Push, Secrets, Storage, Webhooks } from "./catalogue/ServerSettings.ts"
import { Worker } from "./catalogue/WorkerSettings.ts"
import { Telegram, World } from "./catalogue/WorldSettings.ts"

/** The groups as `.env.example` shows them. */
export const CATALOGUE: ReadonlyArray<{
  readonly title: string
  readonly settings: ReadonlyArray<S.Setting<unknown>>
}> = [
  { title: "Mode and server", settings: Object.values(Mode) },
  { title: "Storage", settings: Object.values(Storage) },
  { title: "Secrets (production refuses to start without them)", settings: Object.values(Secrets) },
  { title: "Telegram", settings: Object.values(Telegram) },
  { title: "TON chain and Fragment", settings: Object.values(World) },
  { title: "Sign-in and client addresses", settings: Object.values(Edges) },
  { title: "Direct purchase surface", settings: Object.values(Direct) },
  { title: "Worker", settings: Object.values(Worker) },
  { title: "Web push", settings: Object.values(Push) },
  { title: "Integrators' webhooks", settings: Object.values(Webhooks) },
  { title: "Caps per account and push hosts (the core README explains each)", settings: Object.values(Limits) }
]
