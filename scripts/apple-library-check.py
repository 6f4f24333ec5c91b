"""The Python half of scripts/apple-library-check: drives the simulator's control API and judges what it
produces with Apple's own library. Arguments: the simulator's base URL and its data folder."""
import json, sys, time, urllib.request
from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient, GetTransactionHistoryVersion
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
from appstoreserverlibrary.models.MassExtendRenewalDateRequest import MassExtendRenewalDateRequest
from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
from appstoreserverlibrary.models.RefundPreference import RefundPreference
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

base, data = sys.argv[1], sys.argv[2]
bundle = "com.example.storekeeper.demo"

def call(method, path, body=None):
    request = urllib.request.Request(base + path, method=method,
                                     data=json.dumps(body).encode() if body is not None else None)
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read() or b"{}")

bought = call("POST", "/simulator/v1/purchases",
              {"bundleID": bundle, "productID": "premium.monthly", "customerID": "apple-check"})
original = bought["originalTransactionId"]
call("POST", "/simulator/v1/clock/advance", {"months": 1.05})
call("POST", f"/simulator/v1/subscriptions/{original}/auto-renew", {"enabled": False})
latest = call("GET", f"/simulator/v1/subscriptions/{original}")["latestTransactionId"]
call("POST", f"/simulator/v1/transactions/{latest}/refund", {"reason": 1})

verifier = SignedDataVerifier([open(f"{data}/pki/jws-root.der", "rb").read()], False, Environment.SANDBOX,
                              bundle, 1234567890)
notifications = call("GET", f"/simulator/v1/apps/{bundle}/notifications")["notifications"]
kinds = []
for record in notifications:
    decoded = verifier.verify_and_decode_notification(record["signedPayload"])
    kinds.append(f"{decoded.notificationType.value}/{decoded.subtype.value if decoded.subtype else ''}")
    if decoded.data and decoded.data.signedTransactionInfo:
        verifier.verify_and_decode_signed_transaction(decoded.data.signedTransactionInfo)
    if decoded.data and decoded.data.signedRenewalInfo:
        verifier.verify_and_decode_renewal_info(decoded.data.signedRenewalInfo)
expected = ["SUBSCRIBED/INITIAL_BUY", "DID_RENEW/", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "REFUND/"]
if kinds != expected:
    sys.exit(f"apple-library-check: notifications {kinds}, expected {expected}")

# The simulator saves its world (with the API key it generated for the demo app) within two seconds.
for _ in range(50):
    try:
        key = json.load(open(f"{data}/world.json"))["generatedAPIKeys"][bundle].encode()
        break
    except (OSError, KeyError, ValueError):
        time.sleep(0.1)
client = AppStoreServerAPIClient(key, "SIMKEY0001", "57246542-96fe-1a63-e053-0824d011072a", bundle,
                                 Environment.SANDBOX)
client._base_url = base  # the one change: where Apple is

def extend(original_id, days=1):
    return client.extend_subscription_renewal_date(original_id, ExtendRenewalDateRequest(
        extendByDays=days, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION,
        requestIdentifier=f"check-{time.time_ns()}"))

def expect_refusal(original_id, code):
    try:
        extend(original_id)
    except APIException as error:
        if error.raw_api_error != code:
            sys.exit(f"apple-library-check: extension refused with {error.raw_api_error}, expected {code}")
        return
    sys.exit(f"apple-library-check: extension of {original_id} accepted, expected error {code}")

def server_api():
    statuses = client.get_all_subscription_statuses(original)
    for group in statuses.data:
        for item in group.lastTransactions:
            verifier.verify_and_decode_signed_transaction(item.signedTransactionInfo)
            verifier.verify_and_decode_renewal_info(item.signedRenewalInfo)
    history = client.get_transaction_history(original, None, TransactionHistoryRequest(),
                                             GetTransactionHistoryVersion.V2)
    for signed in history.signedTransactions:
        verifier.verify_and_decode_signed_transaction(signed)
    verifier.verify_and_decode_signed_transaction(client.get_transaction_info(original).signedTransactionInfo)
    for version in (GetTransactionHistoryVersion.V1, GetTransactionHistoryVersion.V2):
        client.get_transaction_history(original, None, TransactionHistoryRequest(), version)
    client.get_refund_history(latest, None)
    # Consumption information answers an open refund request (CONSUMPTION_REQUEST): Apple opens one first.
    call("POST", f"/simulator/v1/transactions/{latest}/consumption-request", {})
    client.send_consumption_information(latest, ConsumptionRequest(
        customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED))
    token = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
    client.set_app_account_token(original, UpdateAppAccountTokenRequest(appAccountToken=token))
    info = verifier.verify_and_decode_signed_transaction(client.get_transaction_info(original).signedTransactionInfo)
    if str(info.appAccountToken) != token:
        sys.exit(f"apple-library-check: appAccountToken {info.appAccountToken}, expected {token}")
    client.finish_transaction(latest)
    app = verifier.verify_and_decode_app_transaction(
        client.get_app_transaction_info(original).signedAppTransactionInfo)
    if app.bundleId != bundle or not app.appTransactionId:
        sys.exit(f"apple-library-check: app transaction {app}")
    client.look_up_order_id(bought["orderId"])
    # The subscription was refunded: Apple refuses to extend it, and its library reads the documented code.
    expect_refusal(original, 4030004)
    now = int(time.time() * 1000)
    client.get_notification_history(None, NotificationHistoryRequest(startDate=now - 90 * 86_400_000,
                                                                     endDate=now + 400 * 86_400_000))
    return len(history.signedTransactions)

# Extend Subscription Renewal Dates for All Active Subscribers: a second customer's active subscription is
# extended (RENEWAL_EXTENDED), then the SUMMARY arrives with the counts, verified like every notification.
mass = call("POST", "/simulator/v1/purchases",
            {"bundleID": bundle, "productID": "premium.monthly", "customerID": "mass"})["originalTransactionId"]
client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
    extendByDays=3, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier="mass-1",
    productId="premium.monthly"))
status = client.get_status_of_subscription_renewal_date_extensions("mass-1", "premium.monthly")
if not status.complete or status.succeededCount != 1:
    sys.exit(f"apple-library-check: mass extension status {status}")
latest_notes = call("GET", f"/simulator/v1/apps/{bundle}/notifications")["notifications"][-2:]
decoded = [verifier.verify_and_decode_notification(n["signedPayload"]) for n in latest_notes]
if [d.notificationType.value for d in decoded] != ["RENEWAL_EXTENDED", "RENEWAL_EXTENSION"] \
        or decoded[1].subtype.value != "SUMMARY" or decoded[1].summary.succeededCount != 1:
    sys.exit(f"apple-library-check: mass extension notifications {decoded}")
kinds += [f"{d.notificationType.value}/{d.subtype.value if d.subtype else ''}" for d in decoded]

# Extend a Subscription Renewal Date on an active subscription: twice in 365 days, then Apple's limit (4030005).
for _ in range(2):
    answer = extend(mass)
    if answer.success is not True or answer.originalTransactionId != mass:
        sys.exit(f"apple-library-check: extension {answer}")
expect_refusal(mass, 4030005)

before = server_api()
call("POST", "/simulator/v1/clock/advance", {"months": 13})
after = server_api()

# A win-back offer: offered in the renewal info once the subscription expired, redeemed as offer type 4.
lapsed = call("POST", "/simulator/v1/purchases",
              {"bundleID": bundle, "productID": "premium.monthly", "customerID": "apple-winback"})["originalTransactionId"]
call("POST", f"/simulator/v1/subscriptions/{lapsed}/auto-renew", {"enabled": False})
call("POST", "/simulator/v1/clock/advance", {"months": 1.2})
item = client.get_all_subscription_statuses(lapsed).data[0].lastTransactions[0]
renewal = verifier.verify_and_decode_renewal_info(item.signedRenewalInfo)
if renewal.eligibleWinBackOfferIds != ["comeback"]:
    sys.exit(f"apple-library-check: eligibleWinBackOfferIds {renewal.eligibleWinBackOfferIds}, expected ['comeback']")
back = call("POST", "/simulator/v1/purchases", {"bundleID": bundle, "productID": "premium.monthly",
                                                 "customerID": "apple-winback", "offer": "winBack",
                                                 "offerID": "comeback"})
redeemed = verifier.verify_and_decode_signed_transaction(
    client.get_transaction_info(back["transactionId"]).signedTransactionInfo)
if redeemed.rawOfferType != 4 or redeemed.offerIdentifier != "comeback":
    sys.exit(f"apple-library-check: win-back transaction offerType {redeemed.rawOfferType} {redeemed.offerIdentifier}")

# A one-time offer code on a consumable: offerDiscountType ONE_TIME, offer type 3.
coins = call("POST", "/simulator/v1/purchases", {"bundleID": bundle, "productID": "coins.100",
                                                  "customerID": "apple-winback", "offer": "offerCode",
                                                  "offerID": "COINSHALF"})
one_time = verifier.verify_and_decode_signed_transaction(
    client.get_transaction_info(coins["transactionId"]).signedTransactionInfo)
if one_time.rawOfferDiscountType != "ONE_TIME" or one_time.rawOfferType != 3:
    sys.exit(f"apple-library-check: one-time offer {one_time.rawOfferDiscountType} {one_time.rawOfferType}")

# RESCIND_CONSENT: no data, appData with the customer's signed app transaction.
call("POST", f"/simulator/v1/apps/{bundle}/rescind-consent", {"customerID": "apple-winback"})
rescind = call("GET", f"/simulator/v1/apps/{bundle}/notifications")["notifications"][-1]
consent = verifier.verify_and_decode_notification(rescind["signedPayload"])
if consent.rawNotificationType != "RESCIND_CONSENT" or consent.data is not None or consent.appData is None \
        or consent.appData.bundleId != bundle:
    sys.exit(f"apple-library-check: RESCIND_CONSENT decoded as {consent}")
verifier.verify_and_decode_app_transaction(consent.appData.signedAppTransactionInfo)
kinds.append("RESCIND_CONSENT/")

# A commitment plan (monthly billing, 12-month commitment): billingPlanType MONTHLY and commitmentInfo on each
# period's transaction; cancelling turns off only the next commitment (commitmentAutoRenewStatus 0).
plan = call("POST", "/simulator/v1/purchases", {"bundleID": bundle, "productID": "premium.annual",
                                                 "customerID": "apple-commitment", "billingPlan": "MONTHLY"})
plan_original = plan["originalTransactionId"]
call("POST", "/simulator/v1/clock/advance", {"months": 1.05})
call("POST", f"/simulator/v1/subscriptions/{plan_original}/auto-renew", {"enabled": False})
item = client.get_all_subscription_statuses(plan_original).data[0].lastTransactions[0]
period = verifier.verify_and_decode_signed_transaction(item.signedTransactionInfo)
if period.rawBillingPlanType != "MONTHLY" or period.billingPlanType is None or period.commitmentInfo is None \
        or period.commitmentInfo.billingPeriodNumber != 2 or period.commitmentInfo.totalBillingPeriods != 12:
    sys.exit(f"apple-library-check: commitment transaction {period}")
plan_renewal = verifier.verify_and_decode_renewal_info(item.signedRenewalInfo)
commitment = plan_renewal.commitmentInfo
if plan_renewal.rawRenewalBillingPlanType != "MONTHLY" or plan_renewal.rawAutoRenewStatus != 1 \
        or commitment is None or commitment.rawCommitmentAutoRenewStatus != 0:
    sys.exit(f"apple-library-check: commitment renewal info {plan_renewal}")

# A switch between subscriptions (to a bundle in another group): the new transaction names the previous one.
call("POST", "/simulator/v1/apps", {"bundleID": "com.example.bundles", "appAppleID": 42, "sharedSecret": "s",
                                    "apiKeyID": "SIMKEY0002", "issuerID": "57246542-96fe-1a63-e053-0824d011072a",
                                    "gracePeriodDays": 16,
                                    "products": [
                                        {"productID": "news.monthly", "kind": "Auto-Renewable Subscription",
                                         "subscriptionGroupID": "news", "level": 1, "period": "P1M",
                                         "prices": {"USA": 4990}, "promotionalOffers": {}, "offerCodes": {}},
                                        {"productID": "everything.monthly", "kind": "Auto-Renewable Subscription",
                                         "subscriptionGroupID": "bundle", "level": 1, "period": "P1M",
                                         "prices": {"USA": 14990}, "promotionalOffers": {}, "offerCodes": {}}]})
news = call("POST", "/simulator/v1/purchases", {"bundleID": "com.example.bundles", "productID": "news.monthly",
                                                 "customerID": "apple-switch"})["originalTransactionId"]
switched = call("POST", "/simulator/v1/purchases", {"bundleID": "com.example.bundles",
                                                     "productID": "everything.monthly", "customerID": "apple-switch",
                                                     "replacing": news})
switch_note = call("GET", "/simulator/v1/apps/com.example.bundles/notifications")["notifications"]
bundles_verifier = SignedDataVerifier([open(f"{data}/pki/jws-root.der", "rb").read()], False, Environment.SANDBOX,
                                      "com.example.bundles", 42)
found = None
for record in switch_note:
    decoded = bundles_verifier.verify_and_decode_notification(record["signedPayload"])
    kinds.append(f"{decoded.notificationType.value}/{decoded.subtype.value if decoded.subtype else ''}")
    signed = bundles_verifier.verify_and_decode_signed_transaction(decoded.data.signedTransactionInfo)
    if signed.transactionId == switched["transactionId"]:
        found = signed
if found is None or found.originalTransactionId != switched["originalTransactionId"]:
    sys.exit(f"apple-library-check: the switch's SUBSCRIBED notification was not found")

# Retention Messaging: Apple's client calls every management endpoint on the simulator — images, messages, default
# messages, the real-time URL, the performance test — with Apple's review played by the simulator's verbs. Every
# real-time request the simulator sends (a customer's, and the performance test's batch) reaches an endpoint here
# and is verified by verify_and_decode_realtime_request before Apple's RealtimeResponseBody answers it.
import http.server, struct, threading, uuid, zlib
from appstoreserverlibrary.api_client import APIException
from appstoreserverlibrary.models.DefaultConfigurationRequest import DefaultConfigurationRequest
from appstoreserverlibrary.models.ImageSize import ImageSize
from appstoreserverlibrary.models.LibraryUtility import _get_cattrs_converter
from appstoreserverlibrary.models.Message import Message
from appstoreserverlibrary.models.PerformanceTestRequest import PerformanceTestRequest
from appstoreserverlibrary.models.RealtimeResponseBody import RealtimeResponseBody
from appstoreserverlibrary.models.RealtimeUrlRequest import RealtimeUrlRequest
from appstoreserverlibrary.models.UploadMessageImage import UploadMessageImage
from appstoreserverlibrary.models.UploadMessageRequestBody import UploadMessageRequestBody

def png(width, height):
    """An opaque RGB PNG, black, as Apple's Upload Image takes it."""
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    rows = b"".join(b"\0" + b"\0" * 3 * width for _ in range(height))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) \
        + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")

def apple_error(call):
    try:
        call()
    except APIException as error:
        return error.raw_api_error
    return None

class RealtimeEndpoint(http.server.BaseHTTPRequestHandler):
    """A Get Retention Message endpoint: `answer(signed payload's JSON body)` gives the bytes to send back."""
    answer = None
    def do_POST(self):
        payload = self.answer(self.rfile.read(int(self.headers["Content-Length"])))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)
    def log_message(self, *arguments):
        pass

def serve_endpoint(answer):
    handler = type("Endpoint", (RealtimeEndpoint,), {"answer": staticmethod(answer)})
    endpoint = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=endpoint.serve_forever, daemon=True).start()
    return endpoint, f"http://127.0.0.1:{endpoint.server_address[1]}/retention"

message_id = uuid.UUID("3f0c8a52-6d1e-4b7a-9c2f-5e8d1a7b4c63")
image_id = uuid.UUID("9d4b6e1a-2c3f-4a5b-8e7d-6c5b4a3f2e1d")
received = []
def own_answer(body):
    received.append(verifier.verify_and_decode_realtime_request(json.loads(body)["signedPayload"]))
    answer = RealtimeResponseBody(message=Message(messageIdentifier=message_id))
    return json.dumps(_get_cattrs_converter(RealtimeResponseBody).unstructure(answer)).encode()
endpoint, realtime_url = serve_endpoint(own_answer)
client.configure_realtime_url(RealtimeUrlRequest(realtimeURL=realtime_url))
if client.get_realtime_url().realtimeURL != realtime_url:
    sys.exit("apple-library-check: Get Realtime URL did not answer the URL configured")
if apple_error(lambda: client.upload_image(image_id, png(3840, 40))) != 4000161:
    sys.exit("apple-library-check: a full-size image 40 pixels high was not refused as InvalidImageError")
client.upload_image(image_id, png(3840, 480), ImageSize.FULL_SIZE)
images = {str(item.imageIdentifier): item.rawImageState for item in client.get_image_list().imageIdentifiers}
if images.get(str(image_id)) != "PENDING":
    sys.exit(f"apple-library-check: an uploaded image is {images}, expected PENDING")
client.upload_message(message_id, UploadMessageRequestBody(
    header="Stay a little longer", body="Your plan keeps every feature you use.",
    image=UploadMessageImage(imageIdentifier=image_id, altText="The library, full of your books")))
states = {str(item.messageIdentifier): item.rawMessageState for item in client.get_message_list().messageIdentifiers}
if states.get(str(message_id)) != "PENDING":
    sys.exit(f"apple-library-check: an uploaded message is {states}, expected PENDING")
call("POST", f"/simulator/v1/apps/{bundle}/messages/{message_id}/approve")
default = DefaultConfigurationRequest(messageIdentifier=message_id)
if apple_error(lambda: client.configure_default_message("premium.monthly", "en-US", default)) != 4030018:
    sys.exit("apple-library-check: a default message whose image is pending was not refused (ImageNotApproved)")
call("POST", f"/simulator/v1/apps/{bundle}/images/{image_id}/approve")
client.configure_default_message("premium.monthly", "en-US", default)
if client.get_default_message("premium.monthly", "en-US").messageIdentifier != message_id:
    sys.exit("apple-library-check: Get Default Message did not answer the message configured")
report = call("POST", f"/simulator/v1/apps/{bundle}/retention-requests", {"customerID": "apple-check",
                                                                          "locale": "en-US"})
if report.get("shown") != "realtime" or len(received) != 1 or received[0].originalTransactionId != original \
        or received[0].userLocale != "en-US":
    sys.exit(f"apple-library-check: retention request {report}, received {received}")
test = client.initiate_performance_test(PerformanceTestRequest(originalTransactionId=original))
for _ in range(300):
    result = client.get_performance_test_results(test.requestId)
    if result.rawResult != "PENDING":
        break
    time.sleep(0.1)
if result.rawResult != "PASS" or len(received) < 2:
    sys.exit(f"apple-library-check: performance test {result}, {len(received)} requests verified")
client.delete_default_message("premium.monthly", "en-US")
if apple_error(lambda: client.get_default_message("premium.monthly", "en-US")) != 4040020:
    sys.exit("apple-library-check: a deleted default message is still answered")
if apple_error(lambda: client.delete_image(image_id)) != 4030019:
    sys.exit("apple-library-check: an image a message shows was deleted (ImageInUse expected)")
client.delete_message(message_id)
client.delete_image(image_id)
if client.get_image_list().imageIdentifiers:
    sys.exit("apple-library-check: a deleted image is still listed")
client.delete_realtime_url()
endpoint.shutdown()
retention_requests = len(received)

# Apple's rate limit as Apple's library meets it: past an endpoint's budget, RateLimitExceededError (4290000), 429.
call("PUT", "/simulator/v1/rate-limits", {"endpoint": "Get Transaction Info", "requests": 1})
try:
    client.get_transaction_info(original)
    client.get_transaction_info(original)
    sys.exit("apple-library-check: a second Get Transaction Info within a budget of one was answered")
except APIException as error:
    if error.http_status_code != 429 or error.raw_api_error != 4290000:
        sys.exit(f"apple-library-check: over the rate limit Apple's client saw {error.http_status_code} "
                 f"{error.raw_api_error}, not 429 RateLimitExceededError")
call("PUT", "/simulator/v1/rate-limits", {"endpoint": "Get Transaction Info"})

# The refund desk: Send Consumption Information (v2) with Apple's client, refused as Apple refuses it (no open
# request, consent not given, a percentage out of range); a prorated preference decides a REFUND whose
# revocationPercentage is what was not consumed, read by Apple's verifier.
coins_id = coins["transactionId"]
def consumption(**fields):
    body = dict(customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED)
    body.update(fields)
    return lambda: client.send_consumption_information(coins_id, ConsumptionRequest(**body))
for label, attempt, code in [("without an open request", consumption(), 4000000)]:
    if apple_error(attempt) != code:
        sys.exit(f"apple-library-check: consumption information {label} answered {apple_error(attempt)}, not {code}")
call("POST", f"/simulator/v1/transactions/{coins_id}/consumption-request", {"reason": "UNINTENDED_PURCHASE"})
for label, attempt, code in [("without consent", consumption(customerConsented=False), 4000035),
                             ("at 100001 milliunits", consumption(consumptionPercentage=100001), 4000000)]:
    got = apple_error(attempt)
    if got != code:
        sys.exit(f"apple-library-check: consumption information {label} answered {got}, not {code}")
consumption(consumptionPercentage=25000, refundPreference=RefundPreference.GRANT_PRORATED)()
decided = call("POST", f"/simulator/v1/transactions/{coins_id}/refund-decision")
if decided.get("consumptionRequest", {}).get("decision") != "REFUND_PRORATED":
    sys.exit(f"apple-library-check: refund decision {decided}")
answer = json.loads(decided["consumptionRequest"]["answer"])
if answer.get("refundPreference") != "GRANT_PRORATED" or answer.get("consumptionPercentage") != 25000:
    sys.exit(f"apple-library-check: the answer kept as {answer}")
refund_note = call("GET", f"/simulator/v1/apps/{bundle}/notifications")["notifications"][-1]
refunded = verifier.verify_and_decode_notification(refund_note["signedPayload"])
refunded_transaction = verifier.verify_and_decode_signed_transaction(refunded.data.signedTransactionInfo)
if refunded.rawNotificationType != "REFUND" or refunded_transaction.revocationPercentage != 75000:
    sys.exit(f"apple-library-check: prorated refund {refunded.rawNotificationType} "
             f"{refunded_transaction.revocationPercentage}")

print(f"apple-library-check: {len(kinds)} notifications verified by Apple's SignedDataVerifier; "
      f"Server API answered Apple's client before and after the clock moved ({before}/{after} transactions); "
      f"a win-back offer offered and redeemed; a one-time offer code; a commitment plan; a switch; "
      f"every Retention Messaging endpoint called with Apple's client, {retention_requests} real-time requests "
      f"verified with verify_and_decode_realtime_request; its rate limit met as RateLimitExceededError; "
      f"consumption information refused as Apple refuses it and a prorated refund decided")
