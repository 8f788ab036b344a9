// Service worker of the Resale web UI (scope /v2/): shows the push notifications the server sends
// ({"title", "body", "url", "tag"}) and opens the page a notification points to.
self.addEventListener("install", function () {
  self.skipWaiting()
})
self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim())
})

self.addEventListener("push", function (event) {
  var data = {}
  try {
    data = event.data ? event.data.json() : {}
  } catch (e) {
    data = { body: event.data ? event.data.text() : "" }
  }
  var url = typeof data.url === "string" && data.url.charAt(0) === "/" ? data.url : "/v2/dashboard"
  event.waitUntil(
    self.registration.showNotification(data.title || "Resale", {
      body: data.body || "",
      tag: data.tag || undefined,
      icon: "/v2/static/icon.svg",
      data: { url: url }
    })
  )
})

self.addEventListener("notificationclick", function (event) {
  event.notification.close()
  var url = (event.notification.data && event.notification.data.url) || "/v2/dashboard"
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if (new URL(windows[i].url).pathname === url && "focus" in windows[i]) return windows[i].focus()
      }
      return self.clients.openWindow(url)
    })
  )
})
