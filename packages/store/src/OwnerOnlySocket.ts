/**
 * A Unix socket only this OS user can connect to, from the first moment it exists at its path.
 * Listening on the final path and then changing its mode leaves a moment in which any local account
 * could connect (the directory holding it may be world-readable, e.g. `.data` in a checkout), and a
 * connection accepted then stays open. So the socket is bound inside a fresh directory beside its
 * path (mkdtemp makes it 0700: nobody else can reach into it), made 0600 there, and renamed into
 * place: rename keeps it bound, and atomically replaces a socket left by a process that died.
 */
import { chmodSync, mkdtempSync, renameSync, rmSync } from "node:fs"
import { basename, dirname, join } from "node:path"

/** Mode bits of a socket nobody but its owner may connect to. */
export const OWNER_ONLY = 0o600

/**
 * Binds `listen` at `path`, owner-only. `listen` binds a server to the path it is given and resolves
 * once it listens (e.g. `PgliteWire.listen`); on failure nothing is left at `path`.
 */
export const listenOwnerOnly = async (path: string, listen: (at: string) => Promise<unknown>): Promise<void> => {
  const staging = mkdtempSync(join(dirname(path), `.${basename(path)}-`))
  try {
    const bound = join(staging, "s")
    await listen(bound)
    chmodSync(bound, OWNER_ONLY)
    renameSync(bound, path)
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}
