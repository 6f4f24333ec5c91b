"""Checks the money metrics of a simulated population against Apple's side: the simulator's ledger.

Usage: money-check.py BASE_URL SUMMARY_JSON LEDGER_JSON [--small-business]
BASE_URL is a running `storekeeper serve` whose in-process simulator made the population (`storekeeper simulate`);
SUMMARY_JSON its summary. LEDGER_JSON is where the ledger is kept: read when it exists (a server restarted with
other rules no longer has its simulator's state), else fetched from the simulator and written there.

By hand, per storefront: revenue is the price of every paid transaction less each refund's share of it (an upgrade's
or a family revocation's end is not a refund); proceeds take the storefront's VAT out of a price that includes it
(the shipped table, Server/Sources/StoreKeeperServer/Resources/storefront-tax-rates.json) and Apple's commission
— 30 %, 15 % once the customer has a year of paid service in the group (a lapse over 60 days starts it again), 15 %
throughout with the Small Business Program — each refund taking back the same share. The metrics API must give
revenue to the cent and proceeds within 0.1 %.
"""

import json
import os
import sys
import urllib.request
from collections import defaultdict
from datetime import datetime, timedelta

SECRET = "sk_demo_storekeeper_secret"
BUNDLE = "com.example.storekeeper.demo"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TAX_TABLE = os.path.join(ROOT, "Server/Sources/StoreKeeperServer/Resources/storefront-tax-rates.json")


def get(url, headers=None):
    request = urllib.request.Request(url, headers=headers or {})
    with urllib.request.urlopen(request, timeout=300) as response:
        return json.load(response)


def date(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def by_hand(ledger, small_business, rates):
    """Revenue and proceeds per (storefront, currency), from the ledger."""
    revenue, proceeds = defaultdict(float), defaultdict(float)
    paid = {}  # (customer, group) -> (paid days, paid until)
    subscriptions = [t for t in ledger if t.get("expiresDate")]
    for t in sorted(subscriptions, key=lambda t: (t["purchaseDate"], t["transactionId"])):
        price = t["price"] / 1000
        if price <= 0:
            continue
        start, expires = date(t["purchaseDate"]), date(t["expiresDate"])
        refunded = (
            t.get("revocationDate") is not None and not t.get("isUpgraded") and t.get("revocationType") != "FAMILY_REVOKE"
        )
        access_end = min(expires, date(t["revocationDate"])) if t.get("revocationDate") else expires
        group = (t["customerID"], t.get("subscriptionGroupId") or t["originalTransactionId"])
        days, until = paid.get(group, (0.0, None))
        if until is not None and (start - until).total_seconds() > 60 * 86_400:
            days = 0.0
        commission = 0.15 if small_business or days >= 365 else 0.30
        kept = price / (1 + rates.get(t["storefront"], 0)) * (1 - commission)
        paid[group] = (days + max(0.0, (expires - start).total_seconds()) / 86_400, max(until or access_end, access_end))
        key = (t["storefront"], t["currency"])
        share = (t.get("revocationPercentage") or 100_000) / 100_000 if refunded else 0
        revenue[key] += price - price * share
        proceeds[key] += kept - kept * share
    return revenue, proceeds


def measured(base, name, start, end):
    """A metric summed over every monthly bucket, per (storefront, currency)."""
    url = f"{base}/v1/metrics/{name}?from={start}&to={end}&interval=month&split=storefront"
    document = get(url, {"Authorization": f"Bearer {SECRET}"})
    totals = {}
    for series in document["series"]:
        parts = series["key"].split(" ")
        if len(parts) == 2:
            totals[(parts[0], parts[1])] = sum(point["value"] for point in series["points"])
    return totals


def main():
    base, summary_path, ledger_path = sys.argv[1], sys.argv[2], sys.argv[3]
    small_business = "--small-business" in sys.argv[4:]
    summary = json.load(open(summary_path))
    if os.path.exists(ledger_path):
        ledger = json.load(open(ledger_path))
    else:
        ledger = get(f"{base}/simulator/v1/ledger?bundleId={BUNDLE}")["transactions"]
        json.dump(ledger, open(ledger_path, "w"))
    rates = json.load(open(TAX_TABLE))["rates"]
    revenue, proceeds = by_hand(ledger, small_business, rates)
    start = summary["start"][:10]
    end = (date(summary["end"]) + timedelta(days=3)).strftime("%Y-%m-%d")
    rules = "Small Business Program" if small_business else "standard commission"
    ok = True
    for name, expected, tolerance in (("revenue", revenue, None), ("proceeds", proceeds, 0.001)):
        got = measured(base, name, start, end)
        for key in sorted(set(expected) | set(got)):
            want, have = expected.get(key, 0.0), got.get(key, 0.0)
            if tolerance is None:
                good = abs(have - want) <= 0.01
                allowed = "to the cent"
            else:
                good = abs(have - want) <= tolerance * max(abs(want), 0.01)
                allowed = f"+- {tolerance * 100:.1f} %"
            ok = ok and good
            print(
                f"money-check: {name:8s} {key[0]} {key[1]} ({rules}): by hand {want:14.2f}  measured {have:14.2f}  "
                f"({allowed}) {'ok' if good else 'OUT OF TOLERANCE'}"
            )
    storefronts = {key[0] for key in revenue}
    if not {"USA", "DEU"} <= storefronts:
        print(f"money-check: the population bought in {sorted(storefronts)}, not in both USA and DEU")
        ok = False
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
