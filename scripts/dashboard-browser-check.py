"""The dashboard in headless Chromium (see dashboard-browser-check): sign in, every page, charts drawn, no console
error, wrong key and missing CSRF token refused."""
import base64
import csv
import io
import json
import sys
import urllib.error
import urllib.request
from urllib.parse import quote

from playwright.sync_api import sync_playwright

base, shots = sys.argv[1], sys.argv[2]
bundle = "com.example.storekeeper.demo"
secret = "sk_demo_storekeeper_secret"


def call(method, path, body=None, key=None):
    request = urllib.request.Request(base + path, method=method,
                                     data=json.dumps(body).encode() if body is not None else None)
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read() or b"{}")


def post_status(path, body):
    request = urllib.request.Request(base + path, method="POST", data=json.dumps(body).encode())
    try:
        with urllib.request.urlopen(request) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def base64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


# A small population: buyers of each plan, a trial, one auto-renew off, a refund; then two months pass.
customers = [("browser-monthly", "premium.monthly", None), ("browser-annual", "premium.annual", None),
             ("browser-basic", "basic.monthly", "introductory"), ("browser-leaver", "premium.monthly", None),
             ("browser-refunded", "premium.monthly", None)]
orders = {}
for customer, product, offer in customers:
    body = {"bundleID": bundle, "productID": product, "customerID": customer}
    if offer:
        body["offer"] = offer
    bought = call("POST", "/simulator/v1/purchases", body)
    orders[customer] = bought["orderId"]
    listed = call("GET", f"/simulator/v1/apps/{bundle}/device-transactions?customerID={customer}")
    signed = listed["transactions"][-1]["signedTransaction"]
    call("POST", "/v1/transactions", {"app_user_id": customer, "signed_transaction": signed},
         key="pk_demo_storekeeper_public")
    if customer == "browser-leaver":
        call("POST", f"/simulator/v1/subscriptions/{bought['originalTransactionId']}/auto-renew", {"enabled": False})
    if customer == "browser-refunded":
        call("POST", f"/simulator/v1/transactions/{bought['transactionId']}/refund", {"reason": 1})
call("POST", "/simulator/v1/clock/advance", {"months": 2})

errors = []
with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto(base + "/dashboard")
    assert page.url.endswith("/dashboard/login"), f"not sent to sign in: {page.url}"
    page.fill("input[name=key]", "sk_not_a_key")
    page.click("button[type=submit]")
    assert "not valid" in page.inner_text("[role=alert]"), "a wrong key was not refused"
    page.screenshot(path=f"{shots}/login-refused.png")

    page.fill("input[name=key]", secret)
    page.click("button[type=submit]")
    assert page.url.endswith("/dashboard"), f"sign-in did not reach the dashboard: {page.url}"
    cookie = [c for c in page.context.cookies() if c["name"] == "storekeeper_session"][0]
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict", f"cookie flags: {cookie}"

    def charts(path, name, minimum):
        page.goto(base + path)
        page.screenshot(path=f"{shots}/{name}.png", full_page=True)
        svgs = page.query_selector_all("svg.chart")
        assert len(svgs) >= minimum, f"{path}: {len(svgs)} charts"
        for svg in svgs:
            marks = svg.query_selector_all("polyline, rect")
            assert marks, f"{path}: a chart with nothing drawn"
            assert int(svg.get_attribute("data-points")) > 0, f"{path}: a chart without data"
        return svgs

    overview = charts("/dashboard?environment=Sandbox", "overview", 6)
    drawn = [svg.get_attribute("data-metric") for svg in overview
             if any(float(p) != 0 for line in svg.query_selector_all("polyline")
                    for p in [line.get_attribute("points").split(" ")[-1].split(",")[1]])]
    assert "active_subscriptions" in drawn or "new_subscriptions" in drawn, f"no chart moved: {drawn}"
    links = page.query_selector_all("figure figcaption a.csv")
    assert len(links) == len(overview), f"{len(links)} CSV links for {len(overview)} charts"
    for link in links[:3]:
        series = page.request.get(base + link.get_attribute("href"))
        assert series.status == 200 and series.text().startswith("key,start,value\n"), \
            f"a chart's CSV: {series.status} {series.text()[:80]}"
    headlines = page.query_selector_all("section.headlines .headline")
    assert len(headlines) == 7 and "MRR" in headlines[0].inner_text(), f"{len(headlines)} headline figures"
    page.goto(base + "/dashboard/cohorts?environment=Sandbox")
    page.screenshot(path=f"{shots}/cohorts.png", full_page=True)
    cells = page.query_selector_all("table.cohorts td.cell")
    assert cells and all(cell.inner_text().endswith("%") for cell in cells), "the cohort table prints every share"
    assert page.query_selector("table.cohorts th").inner_text() == "cohort", "the cohort table's header"
    page.goto(base + "/dashboard/subscribers?id=browser-refunded")
    page.screenshot(path=f"{shots}/subscriber.png", full_page=True)
    text = page.inner_text("main")
    assert "revoked" in text and "REFUND" in text, "the refunded subscriber's story is missing"

    # The header's search box, on any page: a prefix finds the customer, its link opens their page.
    page.fill("header form[role=search] input[name=q]", "browser-ref")
    page.click("header form[role=search] button")
    page.wait_for_load_state()
    assert "/dashboard/search?q=browser-ref" in page.url, f"the search box went to {page.url}"
    page.click("main table a:text('browser-refunded')")
    page.wait_for_load_state()
    assert "revoked" in page.inner_text("main"), "the search result's link opens the customer"

    # The support view: the order id on Apple's emailed receipt finds the customer (Apple's Look Up Order ID), and
    # their page grants a week without a purchase, confirmed.
    page.fill("header form[role=search] input[name=q]", orders["browser-monthly"])
    page.click("header form[role=search] button")
    page.wait_for_load_state()
    assert "order id" in page.inner_text("main table"), f"the order id search: {page.inner_text('main')[:200]}"
    page.click("main table a:text('browser-monthly')")
    page.wait_for_load_state()
    page.screenshot(path=f"{shots}/support-view.png", full_page=True)
    page.select_option("form.grant select[name=entitlement]", "pro")
    page.select_option("form.grant select[name=duration]", "P1W")
    page.fill("form.grant input[name=reason]", "outage <b>compensation</b>")
    page.check("form.grant input[name=confirm]")
    page.click("form.grant button[type=submit]")
    page.wait_for_load_state()
    assert "granted=1" in page.url, f"the grant went to {page.url}: {page.inner_text('main')[:200]}"
    text = page.inner_text("main")
    assert "Granted." in text and "outage <b>compensation</b>" in text, "the grant shows on the customer's page"
    page.screenshot(path=f"{shots}/support-granted.png", full_page=True)
    grants = call("GET", "/v1/subscribers/browser-monthly", key=secret)["subscriber"]["grants"]
    assert len(grants) == 1 and grants[0]["entitlement"] == "pro" and grants[0]["active"], f"grants: {grants}"

    page.goto(base + "/dashboard/subscribers?status=revoked")
    page.screenshot(path=f"{shots}/customers.png", full_page=True)
    rows = page.query_selector_all("table.customers tr")
    assert len(rows) >= 2 and "browser-refunded" in page.inner_text("table.customers"), "the customer list"
    customer_csv = page.request.get(base + "/dashboard/subscribers.csv?status=revoked")
    assert customer_csv.status == 200 and "browser-refunded" in customer_csv.text(), \
        f"the customer CSV: {customer_csv.status}"
    page.goto(base + "/dashboard")
    assert "Sandbox" in page.inner_text("main p strong"), "a Sandbox-only project opens on Sandbox"

    for path, name, expected in [("/dashboard/notifications", "notifications", "SUBSCRIBED"),
                                 ("/dashboard/webhooks", "webhooks", "No webhook endpoints"),
                                 ("/dashboard/offerings", "offerings", "default (current)"),
                                 ("/dashboard/retention", "retention", "No rules yet")]:
        page.goto(base + path)
        page.screenshot(path=f"{shots}/{name}.png", full_page=True)
        assert expected in page.inner_text("main"), f"{path}: '{expected}' missing"

    # Hostile text, seeded as an attacker can without a secret key, then every page that shows it: no navigation,
    # no element the dashboard did not write. A quote or `>` with a combining mark after it, and a Prepend letter
    # (U+0D4E) before `<`, are single grapheme clusters: an escaper comparing clusters let them through raw.
    refresh = '<meta http-equiv="refresh" content="0;url=http://127.0.0.1:9/phish">'
    hostile_ids = ['q"\u0301 autofocus onfocus=x', "p\u0d4e" + refresh, '=HYPERLINK("x")"\u0301,=1+1']
    forged_header = base64url(json.dumps({"alg": '"\u0301>' + refresh, "x5c": []}).encode())
    forged = forged_header + "." + base64url(b"{}") + ".AA"
    status = post_status("/v1/notifications/appstore", {"signedPayload": forged})
    assert 400 <= status < 500, f"a forged notification: {status}"
    call("POST", f"/v1/subscribers/{quote(hostile_ids[1], safe='')}/alias", {"new_app_user_id": "browser-monthly"},
         key="pk_demo_storekeeper_public")
    for hostile in (hostile_ids[0], hostile_ids[2]):
        body = {"bundleID": bundle, "productID": "premium.monthly", "customerID": "hostile" + str(len(hostile))}
        call("POST", "/simulator/v1/purchases", body)
        listed = call("GET", f"/simulator/v1/apps/{bundle}/device-transactions?customerID={body['customerID']}")
        call("POST", "/v1/transactions", {"app_user_id": hostile,
                                          "signed_transaction": listed["transactions"][-1]["signedTransaction"]},
             key="pk_demo_storekeeper_public")
    navigations = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url))
    for path in ["/dashboard/notifications", "/dashboard/subscribers", "/dashboard/subscribers?id=browser-monthly",
                 "/dashboard/subscribers?id=" + quote(hostile_ids[0], safe="")]:
        navigations.clear()
        page.goto(base + path)
        page.wait_for_timeout(1200)  # a refresh of 0 s would have fired by now
        assert len(navigations) == 1 and navigations[0].startswith(base + "/dashboard"), \
            f"{path}: the page navigated: {navigations}"
        injected = page.query_selector_all("meta[http-equiv], [autofocus], [onfocus]")
        assert not injected, f"{path}: markup the dashboard did not write: {[e.evaluate('e => e.outerHTML') for e in injected]}"
    page.screenshot(path=f"{shots}/hostile-customers.png", full_page=True)
    # The CSV answers, read by Python's csv module: every hostile id one whole field, no cell a formula.
    for url in ["/dashboard/subscribers.csv", "/v1/subscribers?format=csv"]:
        if url.startswith("/v1"):
            request = urllib.request.Request(base + url, headers={"Authorization": f"Bearer {secret}"})
            with urllib.request.urlopen(request) as response:
                text = response.read().decode()
        else:
            text = page.request.get(base + url).text()
        rows = list(csv.reader(io.StringIO(text)))
        width = len(rows[0])
        assert all(len(row) == width for row in rows), f"{url}: a field broke out: {rows}"
        ids = [row[0] for row in rows[1:]]
        assert "'" + hostile_ids[2] in ids and hostile_ids[0] in ids, f"{url}: hostile ids not whole: {ids}"
        assert not any(cell[:1] in "=+-@" and cell for row in rows for cell in row), f"{url}: a formula cell"

    refused = page.request.post(base + "/dashboard/logout", form={"csrf": "forged"})
    assert refused.status == 403, f"a form without the CSRF token: {refused.status}"
    page.click("header form[action=\"/dashboard/logout\"] button")
    assert page.url.endswith("/dashboard/login"), f"sign-out: {page.url}"
    browser.close()

if errors:
    sys.exit(f"dashboard-browser-check: the console logged errors: {errors}")
print(f"dashboard-browser-check: signed in, every page drawn ({len(overview)} overview charts, cohorts, a subscriber, "
      f"the customer list and its CSV, a customer found by order id and granted a week from the support view, "
      f"notifications, webhooks, offerings, retention), hostile ids and a forged notification shown without "
      f"navigation or injected markup, the CSVs read whole by Python's csv module, "
      f"no console error; a wrong key and a forged CSRF token refused; screenshots in {shots}")
