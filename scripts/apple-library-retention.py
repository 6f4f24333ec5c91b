"""The server half of scripts/apple-library-check: `storekeeper serve` (its in-process App Store) answers Apple's
real-time retention requests by its rules, and Apple's library judges the wire on both sides. An endpoint here
stands between the simulator and the server: verify_and_decode_realtime_request verifies each signed request, the
server's answer is decoded as Apple's RealtimeResponseBody, and its promotional offer signature is checked as
Apple's are made (PromotionalOfferV2SignatureCreator's claims, and the payload PromotionalOfferSignatureCreator
signs, verified with the app's In-App Purchase key). Arguments: the server's base URL and its data folder."""
import base64, http.server, json, sys, threading, time, urllib.request, uuid
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ec import ECDSA
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from appstoreserverlibrary.api_client import AppStoreServerAPIClient
from appstoreserverlibrary.jws_signature_creator import PromotionalOfferV2SignatureCreator
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.LibraryUtility import _get_cattrs_converter
from appstoreserverlibrary.models.RealtimeResponseBody import RealtimeResponseBody
from appstoreserverlibrary.models.RealtimeUrlRequest import RealtimeUrlRequest
from appstoreserverlibrary.models.UploadMessageRequestBody import UploadMessageRequestBody
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

base, data = sys.argv[1], sys.argv[2]
bundle, secret = "com.example.storekeeper.demo", "sk_demo_storekeeper_secret"
issuer = "57246542-96fe-1a63-e053-0824d011072a"

def call(method, path, body=None, key=None):
    request = urllib.request.Request(base + path, method=method,
                                     data=json.dumps(body).encode() if body is not None else None)
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read() or b"{}")

def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

# Four paying customers the server knows from their receipts, one per kind of answer (a promotional offer is
# capped per customer, so each signature version has its own).
customers = {"en-US": "offer-v2", "fr-FR": "offer-v1", "de-DE": "switch", "it-IT": "message"}
for customer in customers.values():
    call("POST", "/simulator/v1/purchases", {"bundleID": bundle, "productID": "premium.monthly",
                                             "customerID": customer})
    receipt = call("GET", f"/simulator/v1/apps/{bundle}/receipt?customerID={customer}")["receipt"]
    call("POST", "/v1/receipts", {"app_user_id": customer, "receipt": receipt}, key="pk_demo_storekeeper_public")

for _ in range(50):
    try:
        world = json.load(open(f"{data}/simulator/world.json"))
        pem = world["generatedAPIKeys"][bundle].encode()
        break
    except (OSError, KeyError, ValueError):
        time.sleep(0.1)
key_id = next(app for app in world["apps"] if app["bundleID"] == bundle)["apiKeyID"]
client = AppStoreServerAPIClient(pem, key_id, issuer, bundle, Environment.SANDBOX)
client._base_url = base
public_key = serialization.load_pem_private_key(pem, password=None).public_key()
messages = {name: uuid.uuid4() for name in ["offer", "switch", "message"]}
for name, identifier in messages.items():
    client.upload_message(identifier, UploadMessageRequestBody(header=f"A {name} for you", body="Stay with us."))
    call("POST", f"/simulator/v1/apps/{bundle}/messages/{identifier}/approve")
offer = lambda version: {"promotional_offer": {"message_id": str(messages["offer"]), "offer_id": "winback50",
                                               "signature": version}}
call("PUT", "/v1/retention/rules", {"rules": [
    {"identifier": "v2", "when": {"locale": ["en-US"]}, "respond": offer("v2")},
    {"identifier": "v1", "when": {"locale": ["fr-FR"]}, "respond": offer("v1")},
    {"identifier": "switch", "when": {"locale": ["de-DE"]}, "respond": {"alternate_product": {
        "message_id": str(messages["switch"]), "product_id": "premium.annual"}}},
    {"identifier": "message", "respond": {"message": {"message_id": str(messages["message"])}}},
]}, key=secret)

root = urllib.request.urlopen(base + "/simulator/v1/pki/jws-root.der").read()
verifier = SignedDataVerifier([root], False, Environment.SANDBOX, bundle, 1234567890)
judged = []
def check_offer(answer, request):
    """The promotional offer's signature, checked as Apple's library makes one."""
    offer = answer.promotionalOffer
    if offer.promotionalOfferSignatureV2:
        jws = offer.promotionalOfferSignatureV2
        header, claims, signature = jws.split(".")
        apple = PromotionalOfferV2SignatureCreator(pem, key_id, issuer, bundle).create_signature(
            request.productId, "winback50", None)
        apple_header, apple_claims = (json.loads(b64url(part)) for part in apple.split(".")[:2])
        ours_header, ours_claims = json.loads(b64url(header)), json.loads(b64url(claims))
        fixed = lambda values: {k: v for k, v in values.items() if k not in ("iat", "nonce", "transactionId")}
        if fixed(ours_header) != fixed(apple_header) or fixed(ours_claims) != fixed(apple_claims):
            sys.exit(f"apple-library-check: the server's offer JWS {ours_header} {ours_claims} differs from "
                     f"Apple's {apple_header} {apple_claims}")
        raw = b64url(signature)
        public_key.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                          f"{header}.{claims}".encode(), ECDSA(hashes.SHA256()))
        return "v2"
    v1 = offer.promotionalOfferSignatureV1
    payload = "\u2063".join([bundle, v1.keyId, v1.productId, v1.offerIdentifier,
                             str(v1.appAccountToken or "").lower(), str(v1.nonce).lower(), str(v1.timestamp)])
    if v1.keyId != key_id or v1.productId != request.productId:
        sys.exit(f"apple-library-check: the server's v1 offer names key {v1.keyId}, product {v1.productId}")
    public_key.verify(base64.b64decode(v1.encodedSignature), payload.encode(), ECDSA(hashes.SHA256()))
    return "v1"

def relay(body):
    request = verifier.verify_and_decode_realtime_request(json.loads(body)["signedPayload"])
    forwarded = urllib.request.Request(base + "/v1/retention/appstore", data=body, method="POST",
                                       headers={"Content-Type": "application/json"})
    answer_bytes = urllib.request.urlopen(forwarded).read()
    answer = _get_cattrs_converter(RealtimeResponseBody).structure(json.loads(answer_bytes), RealtimeResponseBody)
    kinds = [name for name in ("message", "alternateProduct", "promotionalOffer") if getattr(answer, name)]
    if len(kinds) != 1:
        sys.exit(f"apple-library-check: the server answered {kinds}, not one kind of RealtimeResponseBody")
    judged.append((request.userLocale, kinds[0] if kinds[0] != "promotionalOffer" else check_offer(answer, request)))
    return answer_bytes

class Endpoint(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        payload = relay(self.rfile.read(int(self.headers["Content-Length"])))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)
    def log_message(self, *arguments):
        pass
endpoint = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Endpoint)
threading.Thread(target=endpoint.serve_forever, daemon=True).start()
client.configure_realtime_url(RealtimeUrlRequest(realtimeURL=f"http://127.0.0.1:{endpoint.server_address[1]}/"))
for locale, customer in customers.items():
    shown = call("POST", f"/simulator/v1/apps/{bundle}/retention-requests", {"customerID": customer,
                                                                             "locale": locale})
    if shown.get("shown") != "realtime":
        sys.exit(f"apple-library-check: {customer} ({locale}) was shown {shown}")
expected = [("en-US", "v2"), ("fr-FR", "v1"), ("de-DE", "alternateProduct"), ("it-IT", "message")]
if judged != expected:
    sys.exit(f"apple-library-check: the server's answers were {judged}, expected {expected}")
endpoint.shutdown()
print(f"apple-library-check: the server's {len(judged)} real-time answers decode as Apple's RealtimeResponseBody; "
      f"its v1 and v2 promotional offer signatures verify as Apple's library makes them")
