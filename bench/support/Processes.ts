/**
 * What the sandbox benchmarks share: a free port, CPU time of a process and of a database's backends
 * (Linux /proc), the sandbox world's address from its socket, and waiting for a process to be ready.
 */
import type { ChildProcess } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { connect, createServer } from "node:net"
import { worldSocketOf } from "@resale/world/SharedSandbox.ts"

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer()
    s.listen(0, "127.0.0.1", () => {
      const a = s.address()
      s.close(() => resolve(typeof a === "object" && a ? a.port : 0))
    })
  })

/** CPU seconds (user + system) a process has used, from /proc (Linux); 0 when it is gone. */
export const cpuOf = (pid: number): number => {
  try {
    // fields after the command's closing parenthesis: utime and stime are the 12th and 13th
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

/** CPU seconds of the PostgreSQL backends serving `database` now (their process titles name it). */
export const backendsCpu = (database: string): number => {
  let total = 0
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(` ${database} `)) total += cpuOf(Number(entry))
    } catch {
      // gone meanwhile
    }
  }
  return total
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Where the worker's sandbox world serves its chain (the world's socket in the data directory). */
export const worldOf = (dataDir: string) =>
  new Promise<{ toncenter: string } | undefined>((resolve) => {
    let text = ""
    const socket = connect(worldSocketOf(dataDir))
    socket.setEncoding("utf8")
    socket.on("data", (chunk) => (text += chunk))
    socket.on("end", () => resolve(JSON.parse(text) as { toncenter: string }))
    socket.on("error", () => resolve(undefined))
  })

export const waitReady = async (url: string, child: ChildProcess) => {
  for (let i = 0; i < 1200 && child.exitCode === null; i++) {
    if (
      await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.ok,
        () => false
      )
    )
      return
    await sleep(250)
  }
  throw new Error(`the worker did not get ready (${url})`)
}
