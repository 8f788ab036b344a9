/**
 * The benchmarks' customer: signs `bench` in on a sandbox server at `base`, tops it up ten times
 * (enough for every order of every round and pgbench's) through the operator's mark-paid call, and
 * answers its new API key.
 */
export const fundedApiKey = async (base: string, adminToken: string): Promise<string> => {
  const callback = await fetch(`${base}/v2/auth/sandbox?user=bench`, { redirect: "manual" })
  const cookie = callback.headers.get("set-cookie")!.split(";")[0]!
  for (let i = 0; i < 10; i++) {
    const topup = await (await fetch(`${base}/v2/balance/top-up`, {
      method: "POST",
      headers: { cookie, origin: base, "content-type": "application/x-www-form-urlencoded" },
      body: "amount_uzs=100000000"
    })).json() as { topup: { topup_id: number } }
    await fetch(`${base}/v2/api/admin/topups/${topup.topup.topup_id}/mark-paid`, { method: "POST", headers: { "x-admin-token": adminToken } })
  }
  const rotated = await (await fetch(`${base}/v2/api-key/rotate`, { method: "POST", headers: { cookie, origin: base } })).json()
  return (rotated as { api_key: string }).api_key
}
