/**
 * The TCP ports a process and its descendants listen on, read from /proc as the kernel sees them
 * (no `ss` or `lsof` needed): the listening sockets of /proc/net/tcp and tcp6 whose inodes are open
 * in one of the processes.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs"

export interface Listener {
  readonly pid: number
  readonly address: string
  readonly port: number
}

const LISTEN = "0A"

/** The pids of `root` and every process below it (from each process's parent in /proc/<pid>/stat). */
export const processTree = (root: number): ReadonlyArray<number> => {
  const parents = new Map<number, number>()
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      // The command name is in parentheses and may hold spaces: the parent pid is the second field after it.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]))
    } catch {
      // gone meanwhile
    }
  }
  const tree = [root]
  for (let i = 0; i < tree.length; i++)
    for (const [pid, parent] of parents) if (parent === tree[i] && !tree.includes(pid)) tree.push(pid)
  return tree
}

/** The socket inodes `pid` has open. */
const socketInodes = (pid: number): ReadonlyArray<string> => {
  const inodes: Array<string> = []
  let fds: Array<string> = []
  try {
    fds = readdirSync(`/proc/${pid}/fd`)
  } catch {
    return inodes
  }
  for (const fd of fds) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))
      if (match) inodes.push(match[1]!)
    } catch {
      // closed meanwhile
    }
  }
  return inodes
}

/** Every listening TCP socket of this network namespace, by inode: its address (hex as the kernel writes it) and port. */
const listeningSockets = (): Map<string, { address: string; port: number }> => {
  const sockets = new Map<string, { address: string; port: number }>()
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let lines: Array<string> = []
    try {
      lines = readFileSync(table, "utf8").trim().split("\n").slice(1)
    } catch {
      continue // no IPv6 in this kernel
    }
    for (const line of lines) {
      const fields = line.trim().split(/\s+/)
      const [address, port] = (fields[1] ?? "").split(":")
      if (fields[3] === LISTEN && address !== undefined && port !== undefined)
        sockets.set(fields[9]!, { address, port: Number.parseInt(port, 16) })
    }
  }
  return sockets
}

/** The TCP listeners of `root` and its descendants. */
export const listeningPorts = (root: number): ReadonlyArray<Listener> => {
  const sockets = listeningSockets()
  return processTree(root).flatMap((pid) =>
    socketInodes(pid).flatMap((inode) => {
      const socket = sockets.get(inode)
      return socket === undefined ? [] : [{ pid, ...socket }]
    })
  )
}
