#!/usr/bin/env python3
"""Runs upstream's C++ test suite (a GoogleTest binary) on one runtime and,
for ffi-core's runtime, holds it to the wheel's results.

--runtime wheel: runs the binary, writes RESULTS/wheel.json, prints the
  counts and the failures; passes if the run completed.
--runtime ffi_core: runs the binary, writes RESULTS/ffi_core.json, and
  passes if every test that passed on the wheel (RESULTS/wheel.json) passed
  here too, but for the tests listed in DOCS's section "Upstream's C++ test
  suite" (a table whose first column is `Suite.Test`). A listed test that
  now passes is an error too, so the list stays exact. Tests whose row says
  "crashes" are left out of ffi-core's run (--gtest_filter), so it completes.

A run that dies (a signal, or no JSON) fails and names the test it was in.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

SECTION = "## Upstream's C++ test suite"
ROW = re.compile(r"^\|\s*`([A-Za-z0-9_/]+\.[A-Za-z0-9_/]+)`\s*\|(.*)$")


def documented(docs_path):
    """Test name -> the row's text, from the docs section's table."""
    rows = {}
    in_section = False
    with open(docs_path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                in_section = line.strip() == SECTION
                continue
            m = ROW.match(line) if in_section else None
            if m:
                rows[m.group(1)] = m.group(2)
    return rows


def run(binary, json_path, log_path, excluded):
    if os.path.exists(json_path):
        os.remove(json_path)
    cmd = [binary, "--gtest_output=json:" + json_path]
    if excluded:
        cmd.append("--gtest_filter=-" + ":".join(sorted(excluded)))
    start = time.monotonic()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    elapsed = time.monotonic() - start
    out = proc.stdout.decode("utf-8", "replace")
    with open(log_path, "w", encoding="utf-8") as f:
        f.write(out)
    if proc.returncode < 0 or not os.path.exists(json_path):
        running = re.findall(r"^\[ RUN      \] (\S+)", out, re.M)
        where = running[-1] if running else "(before the first test)"
        sys.exit(f"FAIL: {binary} died (exit {proc.returncode}) in {where}; "
                 f"output in {log_path}")
    return elapsed


def results(json_path):
    """Test name -> 'passed', 'failed' or 'skipped'."""
    with open(json_path, encoding="utf-8") as f:
        data = json.load(f)
    out = {}
    for suite in data.get("testsuites", []):
        for t in suite.get("testsuite", []):
            name = f"{suite['name']}.{t['name']}"
            if t.get("result") == "SKIPPED" or t.get("status") == "NOTRUN":
                out[name] = "skipped"
            elif t.get("failures"):
                out[name] = "failed"
            else:
                out[name] = "passed"
    return out


def counts(res):
    c = {k: 0 for k in ("passed", "failed", "skipped")}
    for v in res.values():
        c[v] += 1
    return ", ".join(f"{v} {k}" for k, v in c.items())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runtime", choices=("wheel", "ffi_core"), required=True)
    p.add_argument("--binary", required=True)
    p.add_argument("--results", required=True)
    p.add_argument("--docs", required=True)
    a = p.parse_args()
    os.makedirs(a.results, exist_ok=True)
    listed = documented(a.docs)
    excluded = set()
    if a.runtime == "ffi_core":
        excluded = {t for t, row in listed.items() if "crashes" in row.lower()}
    json_path = os.path.join(a.results, a.runtime + ".json")
    elapsed = run(a.binary, json_path, os.path.join(a.results, a.runtime + ".log"), excluded)
    res = results(json_path)
    print(f"{a.runtime}: {len(res)} tests: {counts(res)} ({elapsed:.1f} s)"
          + (f"; {len(excluded)} left out (crash, documented)" if excluded else ""))
    for t in sorted(t for t, r in res.items() if r == "failed"):
        print(f"  failed on {a.runtime}: {t}")
    if a.runtime == "wheel":
        return 0

    wheel_json = os.path.join(a.results, "wheel.json")
    if not os.path.exists(wheel_json):
        sys.exit(f"FAIL: {wheel_json} is missing: run upstream_cpp_tests_on_wheel first")
    wheel = results(wheel_json)
    regressions = sorted(t for t, r in wheel.items() if r == "passed" and res.get(t) != "passed"
                         and t not in excluded)
    undocumented = [t for t in regressions if t not in listed]
    stale = sorted(t for t in listed if t not in excluded and res.get(t) == "passed")
    print(f"passed on the wheel, not on ffi-core: {len(regressions) + len(excluded)} "
          f"({len(listed)} documented in {a.docs})")
    for t in undocumented:
        print(f"  UNDOCUMENTED: {t} passes on the wheel, {res.get(t, 'absent')} on ffi-core")
    for t in stale:
        print(f"  STALE: {t} is listed in the docs but passes on ffi-core: remove its row")
    if undocumented or stale:
        return 1
    print("every test that passes on the wheel passes on ffi-core, but the documented ones")
    return 0


if __name__ == "__main__":
    sys.exit(main())
