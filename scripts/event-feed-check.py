"""The event feed loaded into DuckDB by the snippet in docs/metrics.md, twice, checked against the per-subscriber
event lists. Usage: event-feed-check.py <server base URL> <docs/metrics.md> <DuckDB file>
"""

import json
import re
import sys
import time
import urllib.request
from importlib.metadata import version

import duckdb

BUNDLE = "com.example.storekeeper.demo"
PUBLIC_KEY = "pk_demo_storekeeper_public"
SECRET_KEY = "sk_demo_storekeeper_secret"


def call(base: str, method: str, path: str, key: str | None = None, body: dict | None = None) -> dict:
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {key}"} if key else {})
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(urllib.request.Request(base + path, data, headers, method=method), timeout=60) as r:
        return json.loads(r.read() or b"{}")


def buy(base: str, customer: str) -> None:
    call(base, "POST", "/simulator/v1/purchases",
         body={"bundleID": BUNDLE, "productID": "premium.monthly", "customerID": customer})
    receipt = call(base, "GET", f"/simulator/v1/apps/{BUNDLE}/receipt?customerID={customer}")["receipt"]
    call(base, "POST", "/v1/receipts", PUBLIC_KEY, {"app_user_id": customer, "receipt": receipt})


def settle(base: str) -> None:
    """Waits until the simulator has delivered every notification it sent (the server acknowledges one only
    after committing its events): a purchase's notification arrives on its own, after the receipt's answer, and a
    feed read before it lands would find its event only on the next load."""
    deadline = time.monotonic() + 60
    while (pending := call(base, "GET", "/simulator/v1/deliveries")["pending"]) > 0:
        assert time.monotonic() < deadline, f"the simulator still has {pending} notifications to deliver after 60 s"
        time.sleep(0.05)


def main() -> None:
    base, docs, database = sys.argv[1], sys.argv[2], sys.argv[3]
    text = open(docs, encoding="utf-8").read()
    snippets = [block for block in re.findall(r"```python\n(.*?)```", text, re.S) if "import duckdb" in block]
    assert len(snippets) == 1, f"{docs} prints one DuckDB snippet, found {len(snippets)}"
    namespace: dict = {}
    exec(snippets[0], namespace)
    load_feed = namespace["load_feed"]

    customers = [f"feed-{n}" for n in range(6)]
    for customer in customers[:4]:
        buy(base, customer)
    settle(base)
    first = load_feed(base, SECRET_KEY, database)
    for customer in customers[4:]:
        buy(base, customer)
    settle(base)
    second = load_feed(base, SECRET_KEY, database)
    again = load_feed(base, SECRET_KEY, database)

    expected = sorted(
        event["id"] for customer in customers
        for event in call(base, "GET", f"/v1/subscribers/{customer}/events", SECRET_KEY)["events"])
    db = duckdb.connect(database)
    loaded = [row[0] for row in db.execute("SELECT id FROM events ORDER BY id").fetchall()]
    users = db.execute("SELECT count(DISTINCT app_user_id) FROM events").fetchone()[0]
    assert first > 0 and second > 0 and again == 0, (first, second, again)
    assert loaded == expected, f"DuckDB holds {loaded}, the subscribers' events are {expected}"
    assert users == len(customers), users
    print(f"event-feed-check: {len(loaded)} events of {users} customers loaded into DuckDB {version('duckdb')} "
          f"in two runs ({first} then {second}; a third added {again}), each exactly once")


if __name__ == "__main__":
    main()
