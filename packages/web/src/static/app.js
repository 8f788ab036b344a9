// Resale web UI: the little script behind the server-rendered pages. Everything works without it
// except the live parts: balance and status polling, countdowns, price totals, copy buttons, push.
;(function () {
  "use strict"

  var readJson = function (id) {
    var node = document.getElementById(id)
    if (!node) return null
    try {
      return JSON.parse(node.textContent || "null")
    } catch (e) {
      return null
    }
  }
  var config = readJson("client-config") || {
    locale: "en",
    money: { group: ",", unit: "UZS" },
    plural: ["one", "other"],
    messages: {}
  }
  var page = readJson("page-data") || {}
  var POLL_MS = 3000

  // A failed form's message sits beside that form (FormRecall.ts): focus it so it is on screen and read out.
  // Once the page has loaded, as the browser's own scroll to the #anchor would take the focus back.
  var failure = document.querySelector(".flash[role=alert][tabindex]")
  if (failure) {
    failure.focus()
    window.addEventListener("load", function () {
      setTimeout(function () {
        failure.focus()
      }, 0)
    })
  }

  // The wallet page's order (WalletPage.ts): asks for the page again until the order is final, and
  // swaps the content in when its state moved (the server follows the chain on each load).
  var followWallet = function () {
    var state = document.querySelector("[data-wallet-follow]")
    if (!state) return
    setTimeout(function () {
      fetch(location.href, { credentials: "same-origin", headers: { accept: "text/html" } })
        .then(function (response) {
          return response.ok ? response.text() : null
        })
        .then(function (text) {
          var next = text && new DOMParser().parseFromString(text, "text/html").getElementById("main")
          var nextState = next && next.querySelector("#wallet-state")
          if (nextState && nextState.getAttribute("data-state") !== state.getAttribute("data-state")) {
            document.getElementById("main").innerHTML = next.innerHTML
          }
        })
        .catch(function () {})
        .then(followWallet)
    }, POLL_MS)
  }
  followWallet()

  // Same grouping as the server (Translate.ts): digits by three, then the unit.
  var formatUzs = function (n) {
    var digits = String(Math.trunc(Math.abs(n))).replace(/\B(?=(\d{3})+(?!\d))/g, config.money.group)
    return (n < 0 ? "\u2212" : "") + digits + "\u00a0" + config.money.unit
  }
  var t = function (key, params) {
    var text = config.messages[key] || key
    params = params || {}
    if (text.indexOf("|") >= 0 && typeof params.n === "number") {
      var forms = text.split("|")
      var index = config.plural.indexOf(new Intl.PluralRules(config.locale).select(params.n))
      text = forms[index >= 0 && index < forms.length ? index : forms.length - 1]
    }
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      return params[name] === undefined ? whole : String(params[name])
    })
  }

  var getJson = function (url) {
    return fetch(url, { headers: { accept: "application/json" }, credentials: "same-origin" }).then(
      function (response) {
        if (!response.ok) {
          var error = new Error("HTTP " + response.status)
          error.status = response.status
          throw error
        }
        return response.json()
      }
    )
  }

  // A polling loop that pauses while the tab is hidden, backs off on errors and stops on 401/403/404.
  var poll = function (run) {
    var delay = POLL_MS
    var timer = null
    var stopped = false
    var tick = function () {
      timer = null
      if (stopped) return
      if (document.hidden) {
        timer = setTimeout(tick, delay)
        return
      }
      Promise.resolve()
        .then(run)
        .then(
          function (keepGoing) {
            delay = POLL_MS
            setNetworkProblem(false)
            if (keepGoing === false) stopped = true
          },
          function (error) {
            if (error && (error.status === 401 || error.status === 403 || error.status === 404)) {
              stopped = true
              return
            }
            setNetworkProblem(true)
            delay = Math.min(delay * 2, 30000)
          }
        )
        .then(function () {
          if (!stopped) timer = setTimeout(tick, delay)
        })
    }
    timer = setTimeout(tick, delay)
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden && timer !== null && !stopped) {
        clearTimeout(timer)
        timer = setTimeout(tick, 0)
      }
    })
  }

  var networkNote = null
  var setNetworkProblem = function (on) {
    if (on && !networkNote) {
      networkNote = document.createElement("p")
      networkNote.className = "flash flash-error"
      networkNote.setAttribute("role", "status")
      networkNote.textContent = t("error.network")
      var main = document.getElementById("main")
      if (main) main.insertBefore(networkNote, main.firstChild)
    } else if (!on && networkNote) {
      networkNote.remove()
      networkNote = null
    }
  }

  var setBadge = function (badge, kind, status) {
    if (!badge || badge.getAttribute("data-status") === status) return
    badge.setAttribute("data-status", status)
    badge.className = "badge badge-" + status
    badge.textContent = t("status." + kind + "." + status)
  }

  // Copy buttons: the value is in data-copy.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy]")
    if (!button || !navigator.clipboard) return
    navigator.clipboard.writeText(button.getAttribute("data-copy")).then(
      function () {
        var label = button.textContent
        button.textContent = t("common.copied")
        setTimeout(function () {
          button.textContent = label
        }, 1500)
      },
      function () {}
    )
  })

  // A form is sent once: its buttons are disabled after the click (the idempotency key guards the rest).
  document.addEventListener("submit", function (event) {
    var form = event.target
    if (form.getAttribute("method") !== "post") return
    setTimeout(function () {
      Array.prototype.forEach.call(form.querySelectorAll("button[type=submit]"), function (b) {
        b.disabled = true
      })
    }, 0)
  })

  // Countdowns to a top-up's expiry.
  var countdowns = Array.prototype.slice.call(document.querySelectorAll("[data-expires]"))
  var renderCountdowns = function () {
    countdowns.forEach(function (node) {
      var left = Math.max(0, Math.floor((Date.parse(node.getAttribute("data-expires")) - Date.now()) / 1000))
      var text = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0")
      if (node.textContent !== text) node.textContent = text
      if (left === 0) {
        var panel = node.closest("[data-topup-id]")
        var line = panel && panel.querySelector("[data-topup-status]")
        if (line && panel.getAttribute("data-status") === "pending") line.textContent = t("topup.expired")
      }
    })
  }
  if (countdowns.length > 0) {
    renderCountdowns()
    setInterval(renderCountdowns, 1000)
  }

  // Price totals before paying, and what the balance will be afterwards.
  var balanceNode = document.getElementById("balance")
  var currentBalance = function () {
    return balanceNode ? Number(balanceNode.getAttribute("data-balance")) : null
  }
  var priceForms = Array.prototype.slice.call(document.querySelectorAll("[data-price-form]"))
  var renderTotals = function () {
    priceForms.forEach(function (form) {
      var total = 0
      var quantity = form.querySelector("[data-quantity]")
      var selectNode = form.querySelector("select")
      if (quantity) {
        var n = Number(quantity.value)
        total = Number.isFinite(n) && n > 0 ? Math.trunc(n) * Number(form.getAttribute("data-unit-price")) : 0
      } else if (selectNode) {
        total = Number(selectNode.options[selectNode.selectedIndex].getAttribute("data-price"))
      }
      var out = form.querySelector("[data-total]")
      if (out) out.textContent = formatUzs(total)
      var after = form.querySelector("[data-after]")
      var balance = currentBalance()
      if (after && balance !== null) {
        after.textContent =
          total > balance
            ? t("buy.notEnough", { amount: formatUzs(total - balance) })
            : t("buy.afterBalance", { amount: formatUzs(balance - total) })
        after.classList.toggle("reason", total > balance)
      }
    })
  }
  priceForms.forEach(function (form) {
    form.addEventListener("input", renderTotals)
    form.addEventListener("change", renderTotals)
  })
  if (priceForms.length > 0) renderTotals()

  var setBalance = function (amount) {
    if (!balanceNode || Number(balanceNode.getAttribute("data-balance")) === amount) return
    balanceNode.setAttribute("data-balance", String(amount))
    balanceNode.innerHTML = ""
    var span = document.createElement("span")
    span.className = "money"
    span.textContent = formatUzs(amount)
    balanceNode.appendChild(span)
    renderTotals()
  }

  // Live top-ups: the balance and the waiting top-ups, until each one is settled.
  if (page.topupPoll) {
    var watched = {}
    ;(page.live || []).forEach(function (tp) {
      watched[tp.id] = tp.status
    })
    var settle = function (id) {
      return getJson("/v2/dashboard").then(function (dashboard) {
        var found = (dashboard.topups || []).filter(function (tp) {
          return tp.topup_id === id
        })[0]
        setBalance(dashboard.balance_uzs)
        if (!found) return
        var said =
          found.status === "paid"
            ? t("topup.credited", { id: id, amount: formatUzs(found.credited_uzs || found.payable_uzs) })
            : found.status === "rejected" && found.admin_note
              ? t("topup.rejectedBecause", { reason: found.admin_note })
              : t("status.topup." + found.status)
        // The message the form left ("created, transfer exactly ...") is stale now: it says what happened.
        var note = document.querySelector('[data-flash-topup="' + id + '"]')
        if (note) {
          note.className = "flash flash-" + (found.status === "paid" ? "ok" : "error")
          note.textContent = ""
          var lines =
            found.status === "paid"
              ? [said]
              : [t("topup.settledTitle", { id: id, status: t("status.topup." + found.status) })]
          if (found.status === "rejected" && found.admin_note) lines.push(said)
          lines.forEach(function (words) {
            var text = document.createElement("p")
            text.textContent = words
            note.appendChild(text)
          })
        }
        var panel = document.getElementById("topup-" + id)
        if (!panel) return
        panel.setAttribute("data-status", found.status)
        // Settled: the card says so in full; the transfer details and buttons go (nothing left to pay).
        var heading = panel.querySelector("h2")
        if (heading)
          heading.textContent = t("topup.settledTitle", { id: id, status: t("status.topup." + found.status) })
        // One statement, announced once: when the message at the top already says it, the card's own
        // live line goes (its heading still names the state); otherwise the card's line says it.
        var line = panel.querySelector("[data-topup-status]")
        if (line && note) line.remove()
        else if (line) line.textContent = said
        Array.prototype.forEach.call(panel.querySelectorAll("form, .countdown, .pay"), function (node) {
          node.remove()
        })
        var row = document.querySelector('[data-topup-row="' + id + '"] [data-status]')
        setBadge(row, "topup", found.status)
      })
    }
    poll(function () {
      return getJson(page.topupPoll).then(function (status) {
        setBalance(status.balance_uzs)
        var now = {}
        ;(status.topups || []).forEach(function (tp) {
          now[tp.topup_id] = tp.status
        })
        var done = Object.keys(watched).filter(function (id) {
          return now[id] === undefined
        })
        Object.keys(now).forEach(function (id) {
          watched[id] = now[id]
        })
        return Promise.all(
          done.map(function (id) {
            delete watched[id]
            return settle(Number(id))
          })
        )
      })
    })
  }

  // Live order statuses while any order is still on its way.
  var openOrders = function () {
    return Array.prototype.some.call(document.querySelectorAll("[data-order-id] [data-status]"), function (badge) {
      var s = badge.getAttribute("data-status")
      return s === "queued" || s === "processing"
    })
  }
  // A completed order: sent, paid on chain with its Ref# when Fragment never confirmed it; its payment linked
  // where a public explorer shows the chain (as the server renders it: OrderViews.ts).
  var completedNote = function (reason, order) {
    if (order.delivery === "paid_unconfirmed") {
      var sent = document.createElement("span")
      sent.setAttribute("data-order-sent", "")
      sent.textContent = t("orders.sentOnChain", { ref: order.fragment_ref || "\u2014" })
      reason.appendChild(sent)
      reason.appendChild(document.createTextNode(" "))
    }
    if (page.explorer && /^[0-9a-f]{64}$/i.test(order.tx_id || "")) {
      var link = document.createElement("a")
      link.href = page.explorer + "/transaction/" + order.tx_id.toLowerCase()
      link.rel = "noopener"
      link.setAttribute("data-order-payment", "")
      link.textContent = t("orders.viewPayment")
      reason.appendChild(link)
    }
  }
  if (page.ordersPoll && document.querySelector("[data-order-id]")) {
    var quietTicks = 0
    poll(function () {
      // Settled orders are looked at again now and then: an operator may retry or complete one.
      if (!openOrders() && ++quietTicks % 5 !== 0) return true
      return getJson(page.ordersPoll).then(function (list) {
        ;(list.orders || []).forEach(function (order) {
          var row = document.querySelector('[data-order-id="' + order.order_id + '"]')
          if (!row) return
          setBadge(row.querySelector("[data-status]"), "order", order.status)
          var reason = row.querySelector("[data-order-reason]")
          if (reason) {
            // Always the shopper's words, chosen by the code: a failed order's sentence, or that a missed attempt is tried again.
            reason.textContent = order.status === "failed" ? t("orders.failure." + (order.error_code || "unknown")) : ""
            reason.setAttribute("data-order-failure", order.error_code || "")
            if (order.status === "queued" && order.error) {
              var retry = document.createElement("span")
              retry.setAttribute("data-order-retry", "")
              retry.textContent = t("orders.retrying")
              reason.appendChild(retry)
            }
            if (order.status === "completed") completedNote(reason, order)
          }
        })
        if (page.topupPoll === undefined && balanceNode)
          return getJson("/v2/balance").then(function (b) {
            setBalance(b.balance_uzs)
          })
      })
    })
  }

  // A ticket's conversation: new messages after the cursor.
  var conversation = document.getElementById("conversation")
  if (page.ticketPoll && conversation) {
    var cursor = Number(page.cursor) || 0
    var viewer = page.viewer
    poll(function () {
      return getJson(page.ticketPoll + "?after=" + cursor).then(function (answer) {
        ;(answer.messages || []).forEach(function (m) {
          if (document.querySelector('[data-message-id="' + m.message_id + '"]')) return
          var mine = m.author === viewer
          var item = document.createElement("li")
          item.className = "msg msg-" + m.author + (mine ? " msg-mine" : "") + " msg-new"
          item.setAttribute("data-message-id", String(m.message_id))
          var meta = document.createElement("p")
          meta.className = "msg-meta"
          var who = document.createElement("strong")
          who.textContent = mine ? t("ticket.you") : m.author === "operator" ? t("ticket.support") : t("common.user")
          meta.appendChild(who)
          var when = document.createElement("time")
          when.setAttribute("datetime", m.created_at)
          when.textContent =
            " " + new Date(Date.parse(m.created_at) + 5 * 3600 * 1000).toISOString().slice(0, 16).replace("T", " ")
          meta.appendChild(when)
          var body = document.createElement("p")
          body.className = "msg-body"
          body.textContent = m.body
          item.appendChild(meta)
          item.appendChild(body)
          conversation.appendChild(item)
        })
        cursor = Math.max(cursor, Number(answer.cursor) || 0)
        var badge = document.querySelector('[data-status-kind="ticket"]')
        if (badge && answer.status) setBadge(badge, "ticket", answer.status)
      })
    })
  }

  // Push notifications: service worker, subscription with the server's VAPID key, then /v2/push/subscribe.
  var pushButton = document.getElementById("push-enable")
  var pushStatus = document.getElementById("push-status")
  var say = function (key) {
    if (pushStatus) pushStatus.textContent = t(key)
  }
  var keyBytes = function (base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/")
    var raw = atob(padded)
    var bytes = new Uint8Array(raw.length)
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i)
    return bytes
  }
  if (pushButton) {
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      say("push.unsupported")
    } else if (Notification.permission === "denied") {
      say("push.denied")
    } else {
      navigator.serviceWorker.register("/v2/sw.js", { scope: "/v2/" }).then(
        function (registration) {
          return registration.pushManager.getSubscription().then(function (existing) {
            if (existing) {
              say("push.enabled")
              return
            }
            pushButton.hidden = false
            pushButton.addEventListener("click", function () {
              pushButton.disabled = true
              getJson("/v2/push/key")
                .then(function (key) {
                  if (!key.public_key) {
                    say("push.unavailable")
                    return null
                  }
                  return Notification.requestPermission().then(function (permission) {
                    if (permission !== "granted") {
                      say("push.denied")
                      return null
                    }
                    return registration.pushManager.subscribe({
                      userVisibleOnly: true,
                      applicationServerKey: keyBytes(key.public_key)
                    })
                  })
                })
                .then(function (subscription) {
                  if (!subscription) return
                  return fetch("/v2/push/subscribe", {
                    method: "POST",
                    credentials: "same-origin",
                    headers: { "content-type": "application/json", accept: "application/json" },
                    body: JSON.stringify(subscription)
                  }).then(function (response) {
                    if (!response.ok) throw new Error("HTTP " + response.status)
                    pushButton.hidden = true
                    say("push.enabled")
                  })
                })
                .catch(function () {
                  say("push.failed")
                })
                .then(function () {
                  pushButton.disabled = false
                })
            })
          })
        },
        function () {
          say("push.unsupported")
        }
      )
    }
  }
})()
