"""Compares the rates a simulated population was given with what the metrics API measured on it.

Usage: population-check.py BASE_URL SUMMARY_JSON (the output of `storekeeper simulate --json`, default rates).
Each rate is a sum over the whole calendar months of the run, per paying subscriber-month: the paying base of a
month is the active subscriptions minus the active trials at the end of the month before.
"""

import json
import sys
import urllib.request

SECRET = "sk_demo_storekeeper_secret"
TIME_TARGET_SECONDS = 120  # for 10,000 subscribers over 12 months
DAYS_PER_MONTH = 30.4375 / 30  # the population's rates are per 30-day period


def metric(base, name, start, end, split=None):
    query = f"from={start}&to={end}&interval=month" + (f"&split={split}" if split else "")
    request = urllib.request.Request(
        f"{base}/v1/metrics/{name}?{query}", headers={"Authorization": f"Bearer {SECRET}"}
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        document = json.load(response)
    return {series["key"]: [point["value"] for point in series["points"]] for series in document["series"]}


def main():
    base, summary_path = sys.argv[1], sys.argv[2]
    summary = json.load(open(summary_path))
    start, end = summary["start"][:10], summary["end"][:10]
    failures = summary["failures"]
    print(
        f"population-check: {summary['subscribers']} subscribers, {summary['days']} days "
        f"({summary['start']} to {summary['end']}) in {summary['seconds']:.1f} s; actions {summary['actions']}"
    )
    active = metric(base, "active_subscriptions", start, end)["all"]
    trials = metric(base, "active_trials", start, end)["all"]
    churn = metric(base, "churn", start, end, split="offer_type")
    conversion = metric(base, "trial_conversion", start, end)["all"]
    refunds = metric(base, "refunds", start, end)["count"]
    grace = metric(base, "grace_recoveries", start, end)["all"]
    billing = metric(base, "billing_recoveries", start, end)["all"]
    count = len(active)
    # Whole months only: the first bucket began before the run and the last ends after it.
    months = range(2, count - 1)
    paying = sum(active[m - 1] - trials[m - 1] for m in months)

    def total(series):
        return sum(series[m] for m in months)

    churn_rate = metric(base, "churn_rate", start, end, split="offer_type").get("none", [0] * count)
    voluntary = total(churn.get("none voluntary", [0] * count))
    involuntary = sum(total(values) for key, values in churn.items() if key.endswith(" involuntary"))
    failed = involuntary + total(grace) + total(billing)
    checks = [
        ("monthly churn (paid, voluntary)", 0.08 * DAYS_PER_MONTH, voluntary / paying, 0.01),
        ("billing failure per month", 0.03 * DAYS_PER_MONTH, failed / paying, 0.005),
        ("refunds per month", 0.01 * DAYS_PER_MONTH, total(refunds) / paying, 0.003),
        ("trial conversion", 0.4, sum(conversion[m] for m in months) / len(months), 0.03),
        # Paid subscriptions churned in a month over those active at its start: cancellations, and failed
        # renewals billing does not recover (refunds are not churn).
        ("churn rate (paid, per month)", (0.08 + 0.03 * 0.5) * DAYS_PER_MONTH, sum(churn_rate[m] for m in months) / len(months), 0.015),
    ]
    ok = failures == 0
    if failures:
        print(f"population-check: {failures} actions were refused")
    for name, given, measured, tolerance in checks:
        verdict = "ok" if abs(measured - given) <= tolerance else "OUT OF TOLERANCE"
        ok = ok and verdict == "ok"
        print(
            f"population-check: {name:32s} given {given * 100:6.2f} %  measured {measured * 100:6.2f} %  "
            f"(+- {tolerance * 100:.1f}) {verdict}"
        )
    print(f"population-check: paying subscriber-months measured {paying:.0f}")
    # The target is for 10,000 subscribers over 12 months; a run of another size is held to its share of it.
    target = TIME_TARGET_SECONDS * summary["subscribers"] / 10000 * summary["months"] / 12
    met = "met" if summary["seconds"] < target else "NOT MET (reported, not gated)"
    print(f"population-check: simulate took {summary['seconds']:.1f} s; target < {target:.0f} s: {met}")
    sys.exit(0 if ok else 1)


def experiment(summary_path):
    """The simulated experiment's results name the treatment, whose trials convert more, as the winner."""
    summary = json.load(open(summary_path))
    results = summary.get("experiment") or {}
    variants = {variant["identifier"]: variant for variant in results.get("variants", [])}
    control, treatment = variants.get("control"), variants.get("treatment")
    ok = summary["failures"] == 0 and control is not None and treatment is not None
    if ok:
        for variant in (control, treatment):
            print(
                f"population-check: experiment {variant['identifier']:9s} {variant['enrolled']} enrolled, "
                f"conversion {variant['conversion_rate'] * 100:5.1f} %, P(best) {variant['conversion_probability_best']:.3f}"
            )
        ok = (
            control["enrolled"] + treatment["enrolled"] == summary["subscribers"]
            and treatment["conversion_rate"] > control["conversion_rate"]
            and treatment["conversion_probability_best"] > 0.95
        )
    print(f"population-check: the simulated winner {'wins' if ok else 'DOES NOT WIN'} ({summary['failures']} refused)")
    sys.exit(0 if ok else 1)


if sys.argv[1] == "--experiment":
    experiment(sys.argv[2])
else:
    main()
