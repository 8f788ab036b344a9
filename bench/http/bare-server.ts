import { createServer } from "node:http"

/** The baseline: bare node:http answering the same pricing JSON the service answers. */
const body = process.argv[3] ?? "{}"
const port = Number(process.argv[2] ?? 0)
createServer((req, res) => {
  if (req.method === "GET" && req.url === "/v2/api/pricing") {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
    res.end(body)
  } else {
    res.writeHead(404)
    res.end()
  }
}).listen(port, "127.0.0.1", () => console.log("ready"))
