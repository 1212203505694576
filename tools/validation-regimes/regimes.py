#!/usr/bin/env python3
"""Throughput and peak-memory errors of the validation sets, by the regimes where plans used to be far off.

Usage: regimes.py CLI [CASES.json ...] [--markdown] [--before CLI_BEFORE DIR]

Runs `CLI validate FILE --json` for every file and sorts each case into the regimes it belongs to, by its
stated settings only (never its source or notes):
  zero3-large-dp   ZeRO-3 / FSDP (zero_stage 3) with 256 or more data-parallel ranks
  long-sequence    16K tokens or more per sequence
  network          more than one node on a cluster preset or network that is not one card per GPU
  pp-under-fsdp    the FSDP execution style with pipeline parallelism
  fine-moe         mixture of experts with 32 or more experts
Prints per set and regime: figures, median and worst absolute error (throughput; peak memory apart).

--before CLI_BEFORE DIR adds the figures of an earlier planner: CLI_BEFORE runs on DIR's file of the same
name, and each of its cases is sorted into regimes by the same case (same id) of the file given, so both
columns hold the same runs. docs/validation/regimes.md's "before" is the planner of the commit before the
regimes' work (f4ea357), which reads only @1 files: DIR holds the @1 sets as that commit had them
(tests/data/validation/v1, and the reference set as reference-runs.json).
"""
import json
import os
import statistics
import subprocess
import sys

REGIMES = ["zero3-large-dp", "long-sequence", "network", "pp-under-fsdp", "fine-moe", "all"]


def regimes_of(case):
    model = case.get("model") or {}
    layout = case.get("layout") or {}
    hardware = case.get("hardware") or {}
    training = case.get("training") or {}
    cluster = case.get("cluster") or {}
    out = []
    if layout.get("zero_stage") == 3 and (layout.get("dp") or 1) >= 256:
        out.append("zero3-large-dp")
    if (model.get("seq_len") or 0) >= 16384:
        out.append("long-sequence")
    gpus, per_node = hardware.get("gpus") or 0, hardware.get("gpus_per_node") or 8
    if gpus > per_node and (cluster.get("preset") or cluster.get("network") or
                            "network_bandwidth_bytes_per_s" in (cluster.get("gpu") or {})):
        out.append("network")
    if training.get("execution_style") == "fsdp" and (layout.get("pp") or 1) > 1:
        out.append("pp-under-fsdp")
    moe = model.get("moe") or {}
    if (moe.get("experts") or 0) >= 32:
        out.append("fine-moe")
    out.append("all")
    return out


def errors_by_regime(cli, path, cases):
    """{regime: ([throughput errors], [peak memory errors])} of CLI's plans of the cases in path."""
    result = json.loads(subprocess.run([cli, "validate", path, "--json"], capture_output=True, text=True,
                                       check=True).stdout)
    by_regime = {r: ([], []) for r in REGIMES}
    for row in result["cases"]:
        case = cases.get(row["id"])
        if case is None or row.get("relative_error") is None:
            continue
        kind = 1 if row["metric"] == "peak_memory_gib" else 0
        for regime in regimes_of(case):
            by_regime[regime][kind].append(row["relative_error"])
    return by_regime


def summary(errors, short=False):
    if not errors:
        return "-"
    errors = [abs(e) * 100 for e in errors]
    if short:
        return "%.1f / %.1f %% (%d)" % (statistics.median(errors), max(errors), len(errors))
    return "%d figures, median %.1f %%, worst %.1f %%" % (len(errors), statistics.median(errors), max(errors))


def main(argv):
    markdown = "--markdown" in argv
    args = [a for a in argv if a != "--markdown"]
    before = None
    if "--before" in args:
        at = args.index("--before")
        before = args[at + 1:at + 3]
        del args[at:at + 3]
    cli, files = args[0], args[1:]
    rows = []
    for path in files:
        cases = {c["id"]: c for c in json.load(open(path))["cases"]}
        name = os.path.basename(path).removesuffix(".json")
        after = errors_by_regime(cli, path, cases)
        earlier = None
        if before and os.path.exists(os.path.join(before[1], name + ".json")):
            earlier = errors_by_regime(before[0], os.path.join(before[1], name + ".json"), cases)
        for regime in REGIMES:
            speed, memory = after[regime]
            if not (speed or memory):
                continue
            if before:
                was = earlier[regime] if earlier else ([], [])
                rows.append((name, regime, summary(was[0], True), summary(speed, True), summary(was[1], True),
                             summary(memory, True)))
            else:
                rows.append((name, regime, summary(speed), summary(memory)))
    if markdown and before:
        print("| Set | Regime | Throughput before | Throughput after | Peak memory before | Peak memory after |")
        print("|---|---|---:|---:|---:|---:|")
    elif markdown:
        print("| Set | Regime | Throughput | Peak memory |\n|---|---|---|---|")
    for r in rows:
        if markdown:
            print("| " + " | ".join(r) + " |")
        else:
            print(("%-28s %-15s" + " %-24s" * (len(r) - 2)) % r)


if __name__ == "__main__":
    main(sys.argv[1:])
