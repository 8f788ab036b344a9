/**
 * What another local account gets from the embedded database's files: a child Node process run as
 * `nobody` tries to connect to a Unix socket and to read a file. Only root may start a process as
 * another user, so elsewhere the check is not possible (`canSwitchUser`).
 */
import { execFile } from "node:child_process"

const NOBODY = 65534

/** True when this process may run a child as another account. */
export const canSwitchUser = (): boolean => process.getuid?.() === 0

/** The outcome of each attempt: "connected" / "read", or the error code (e.g. "EACCES"). */
export interface Attempts {
  readonly connect: string
  readonly read: string
}

const SCRIPT = `
const net = require("node:net"), fs = require("node:fs")
let read
try { fs.readFileSync(process.argv[2]); read = "read" } catch (error) { read = error.code }
const socket = net.connect(process.argv[1])
socket.on("connect", () => { console.log(JSON.stringify({ connect: "connected", read })); socket.destroy() })
socket.on("error", (error) => console.log(JSON.stringify({ connect: error.code, read })))
`

/** Runs both attempts as `nobody` (with an empty environment: nothing of this process carries over). */
export const asAnotherUser = (socket: string, file: string): Promise<Attempts> =>
  new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["-e", SCRIPT, socket, file],
      { uid: NOBODY, gid: NOBODY, env: {}, timeout: 60_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout))
    )
  })
