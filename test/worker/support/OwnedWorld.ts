/**
 * The test process as the owner of a data directory's sandbox world: it answers the world's socket
 * with its own loopback toncenter and Fragment simulator, so a worker process started on that
 * directory in sandbox mode joins them (as `npm run worker` joins `npm start`) and they outlive the
 * worker when it is killed. Sandbox mode refuses TONCENTER_URL and FRAGMENT_COOKIES, so this is how a
 * sandbox worker reaches a chain and a simulator the test controls.
 */
import { worldSocketOf } from "@resale/world/SharedSandbox.ts"
import { Effect } from "effect"
import { createServer } from "node:net"

export interface OwnedWorld {
  /** the toncenter v2 endpoint over the test's emulator */
  readonly toncenter: string
  /** the Fragment simulator's address and its session's Cookie header */
  readonly fragment: string
  readonly cookies: string
}

/** Answers `dataDir`'s world socket for as long as the scope lives. */
export const ownSandboxWorld = (dataDir: string, world: OwnedWorld) =>
  Effect.acquireRelease(
    Effect.callback<ReturnType<typeof createServer>>((resume) => {
      const answer = `${JSON.stringify({ ...world, pid: process.pid })}\n`
      // A worker killed while asking leaves a closed socket: writing to it must not end the test.
      const server = createServer((connection) => connection.on("error", () => undefined).end(answer))
      server.once("error", (error) => resume(Effect.die(error)))
      server.listen(worldSocketOf(dataDir), () => resume(Effect.succeed(server)))
    }),
    (server) => Effect.callback<void>((resume) => void server.close(() => resume(Effect.void)))
  )
