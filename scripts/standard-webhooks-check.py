"""A live StoreKeeper delivery verified with the PyPI `standardwebhooks` package, by the snippet in docs/webhooks.md.

Usage: standard-webhooks-check.py <server base URL> <docs/webhooks.md>
"""

import http.server
import json
import re
import sys
import threading
import time
import urllib.request
from importlib.metadata import version

from standardwebhooks.webhooks import WebhookVerificationError

SECRET_KEY = "sk_demo_storekeeper_secret"


def call(base: str, method: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(
        base + path, method=method, data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {SECRET_KEY}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read() or b"{}")


def main() -> None:
    base, docs = sys.argv[1], sys.argv[2]
    text = open(docs, encoding="utf-8").read()
    snippets = [block for block in re.findall(r"```python\n(.*?)```", text, re.S) if "standardwebhooks" in block]
    assert len(snippets) == 1, f"{docs} prints one standardwebhooks snippet, found {len(snippets)}"
    namespace: dict = {}
    exec(snippets[0], namespace)
    verified_event = namespace["verified_event"]

    received: list[tuple[dict, bytes]] = []

    class Receiver(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            received.append(({key.lower(): value for key, value in self.headers.items()}, body))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    endpoint = call(base, "POST", "/v1/webhooks", {"url": f"http://127.0.0.1:{receiver.server_port}/hook"})
    secret = endpoint["secret"]
    assert secret.startswith("whsec_"), f"the secret is shown as whsec_…, got {secret[:6]}…"
    call(base, "POST", f"/v1/webhooks/{endpoint['id']}/test")
    deadline = time.time() + 30
    while not received and time.time() < deadline:
        time.sleep(0.1)
    assert received, "no delivery reached the receiver within 30 s"
    headers, body = received[0]

    event = verified_event(body, headers, secret)
    assert event["id"] == headers["webhook-id"] == headers["storekeeper-event-id"], (event, headers)
    assert event["type"] == "test", event
    for name, bad_body, bad_secret in [
        ("a changed body", body.replace(b"test", b"tEst", 1), secret),
        ("another secret", body, "whsec_" + "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo="),
    ]:
        try:
            verified_event(bad_body, headers, bad_secret)
        except WebhookVerificationError:
            continue
        raise AssertionError(f"{name} verified")
    print(f"standard-webhooks-check: a live delivery verified with standardwebhooks {version('standardwebhooks')}; "
          "a changed body and another secret were refused")
    receiver.shutdown()


if __name__ == "__main__":
    main()
