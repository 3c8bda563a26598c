#!/usr/bin/env python3
"""Reliability probes: faults thrown at the real programs, counted (docs/reliability.md).

Each probe drives the built flightdeck-cli (and flightdeck-sim, flightdeck-soak) as a person or a script
would, in a private home, and prints what it counted. None is part of the test suite: they take minutes.

  tests/probes/reliability.py interrupted-repairs [--count 128]
      repairs of six kinds killed by SIGINT, SIGTERM or SIGKILL at random moments: every one that changed
      the cloud has its write-ahead record, every unfinished one reads "interrupted", no line is torn
  tests/probes/reliability.py killed-recording [--count 210]
      check --record killed with SIGKILL at random moments: the history stays whole and usable
  tests/probes/reliability.py unusable-history [--rounds 30 --processes 8]
      several check --record meet an unusable history at once: one moves it aside, no record is lost
  tests/probes/reliability.py skewed-clock
      a cloud whose clock runs 40 days ahead, then steps back: no kluster's history is pruned, a repaired
      finding is resolved
  tests/probes/reliability.py console-and-writers [--seconds 150]
      the console recording a 120-kluster fleet beside four check --record writers: every record kept

BUILD (default: build/) holds the programs.
"""

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Programs:
    def __init__(self, build):
        self.cli = os.path.join(build, "app/cli/flightdeck-cli")
        self.sim = os.path.join(build, "app/sim/flightdeck-sim")
        self.soak = os.path.join(build, "tests/soak/flightdeck-soak")


class Home:
    """A private home: clouds.yaml names the simulator, its data folder is the history's and the audit's."""

    def __init__(self, auth_url=None, user="demo", password="flightdeck-demo", project="flightdeck-demo"):
        self.dir = tempfile.mkdtemp(prefix="flightdeck-probe-")
        os.makedirs(os.path.join(self.dir, "config/openstack"))
        if auth_url:
            with open(os.path.join(self.dir, "config/openstack/clouds.yaml"), "w") as f:
                f.write(
                    "clouds:\n  sim:\n    auth:\n      auth_url: %s\n      username: %s\n      password: %s\n"
                    "      project_name: %s\n      user_domain_name: Default\n      project_domain_name: Default\n"
                    "    region_name: RegionOne\n" % (auth_url, user, password, project))
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("OS_") and k != "KUBECONFIG"}
        self.env.update(HOME=self.dir, XDG_CONFIG_HOME=os.path.join(self.dir, "config"),
                        XDG_DATA_HOME=os.path.join(self.dir, "data"),
                        XDG_CACHE_HOME=os.path.join(self.dir, "cache"), QT_QPA_PLATFORM="offscreen")

    def data(self, name):
        return os.path.join(self.dir, "data/flightdeck", name)


class Simulator:
    def __init__(self, programs, *arguments):
        self.process = subprocess.Popen([programs.sim, "--json", *arguments], stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)
        self.endpoints = json.loads(self.process.stdout.readline())

    def admin(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.endpoints["admin"] + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            raw = answer.read()
            return json.loads(raw) if raw else None

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


def cli(programs, home, *arguments, timeout=120):
    return subprocess.run([programs.cli, *arguments], env=home.env, cwd=home.dir, capture_output=True,
                          text=True, timeout=timeout)


def audit_lines(home):
    path = home.data("audit.jsonl")
    if not os.path.exists(path):
        return []
    with open(path, "rb") as f:
        return f.read().split(b"\n")


# The six kinds of repair: a Nova deletion, a Nova action, a Neutron rule, two router changes, a Kubernetes
# deletion.
REPAIRS = [
    ("demo", "instance-error:kks-demo-pool-t5y6u", "compute", "DELETE"),
    ("demo", "instance-missing-security-group:demo-pool-r3s4d", "compute", "POST"),
    ("demo", "security-group-rule-missing:tcp", "network", "POST"),
    ("legacy", "route-duplicate:198.19.1.0/24", "network", "PUT"),
    ("legacy", "route-missing:kks-legacy-default-k7l8m", "network", "PUT"),
    ("demo", "node-without-instance:kks-demo-pool-g4h0s", "kubernetes", "DELETE"),
]


def finding_ids(programs, home, kluster):
    r = cli(programs, home, "check", "--cloud", "sim", "--kluster", kluster, "--format", "json")
    return {f["id"] for f in json.loads(r.stdout)["findings"]} if r.stdout else set()


def interrupted_repairs(programs, args):
    sim = Simulator(programs)
    home = Home(sim.endpoints["authUrl"])
    rng = random.Random(args.seed)
    signals = [signal.SIGINT, signal.SIGTERM, signal.SIGKILL]
    changed = recorded_when_changed = missing = interrupted_runs = changed_interrupted = 0
    by_signal = {s.name: 0 for s in signals}
    try:
        for run in range(args.count):
            sim.admin("DELETE", "/faults")
            sim.admin("POST", "/reset")
            kluster, finding, service, method = REPAIRS[run % len(REPAIRS)]
            sim.admin("POST", "/faults", {"kind": "latency", "latencyMs": rng.randint(200, 2000),
                                          "service": service, "method": method})
            before = len([l for l in audit_lines(home) if b'"phase":"started"' in l])
            p = subprocess.Popen([programs.cli, "repair", "--cloud", "sim", "--kluster", kluster, "--finding",
                                  finding, "--yes"], env=home.env, cwd=home.dir, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(0.0, 1.8))
            sig = rng.choice(signals)
            signalled = p.poll() is None
            if signalled:
                p.send_signal(sig)
                by_signal[sig.name] += 1
                interrupted_runs += 1
            p.wait(30)
            sim.admin("DELETE", "/faults")
            after = len([l for l in audit_lines(home) if b'"phase":"started"' in l])
            if finding not in finding_ids(programs, home, kluster):
                changed += 1
                changed_interrupted += signalled
                if after == before + 1:
                    recorded_when_changed += 1
                else:
                    missing += 1
        records = [json.loads(l) for l in cli(programs, home, "audit", "--format", "json").stdout.splitlines() if l]
        unfinished = [r for r in records if "finishedAt" not in r]
        interrupted = [r for r in unfinished if r.get("verification") == "interrupted"]
        torn = [l for l in audit_lines(home) if l and not l.startswith(b"{")]
        whole = all(json.loads(l) is not None for l in audit_lines(home) if l)
        print("interrupted-repairs: %d repairs over %d kinds, %d interrupted (signals %s)" %
              (args.count, len(REPAIRS), interrupted_runs, by_signal))
        print("  %d changed the cloud (%d of them interrupted); %d have their write-ahead record (%d without)" %
              (changed, changed_interrupted, recorded_when_changed, missing))
        print("  %d records, %d unfinished, %d of those read \"interrupted\"; %d torn lines; every line JSON: %s" %
              (len(records), len(unfinished), len(interrupted), len(torn), whole))
        return 0 if missing == 0 and len(interrupted) == len(unfinished) and not torn and whole else 1
    finally:
        sim.stop()


def killed_recording(programs, args):
    home = Home()
    rng = random.Random(args.seed)
    snapshot = os.path.join(ROOT, "examples/broken-routes")
    finished = 0
    for _ in range(args.count):
        p = subprocess.Popen([programs.cli, "check", "--snapshot", snapshot, "--record"], env=home.env,
                             cwd=home.dir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.0, 0.15))
        if p.poll() is None:
            p.kill()
        else:
            finished += 1
        p.wait(30)
    db = sqlite3.connect(home.data("history.sqlite"))
    integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
    samples = db.execute("SELECT COUNT(*) FROM samples").fetchone()[0]
    db.close()
    again = cli(programs, home, "check", "--snapshot", snapshot, "--record")
    aside = [f for f in os.listdir(os.path.dirname(home.data("x"))) if ".unusable-" in f]
    print("killed-recording: %d runs sent SIGKILL at random (%d had finished first)" %
          (args.count, finished))
    print("  integrity_check: %s; %d samples kept (at least the %d finished runs); moved aside: %d; "
          "the next record: %s" % (integrity, samples, finished, len(aside),
                                   "kept" if "not recorded" not in again.stderr else again.stderr.strip()))
    return 0 if integrity == "ok" and samples >= finished and not aside and "not recorded" not in again.stderr \
        else 1


def unusable_history(programs, args):
    home = Home()
    snapshot = os.path.join(ROOT, "examples/broken-routes")
    folder = os.path.dirname(home.data("x"))
    kept = lost = told_not_recorded = rounds_with_one_aside = 0
    for _ in range(args.rounds):
        os.makedirs(folder, exist_ok=True)
        for f in os.listdir(folder):
            os.remove(os.path.join(folder, f))
        with open(home.data("history.sqlite"), "w") as f:
            f.write("not a database\n" * 100)
        processes = [subprocess.Popen([programs.cli, "check", "--snapshot", snapshot, "--record"], env=home.env,
                                      cwd=home.dir, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                     for _ in range(args.processes)]
        for p in processes:
            _, err = p.communicate(timeout=60)
            told_not_recorded += "not recorded" in err
        db = sqlite3.connect(home.data("history.sqlite"))
        n = db.execute("SELECT COUNT(*) FROM samples").fetchone()[0]
        db.close()
        kept += n
        lost += args.processes - n
        rounds_with_one_aside += len([f for f in os.listdir(folder) if f.endswith(".sqlite") is False
                                      and ".unusable-" in f and not f.endswith(("-wal", "-shm"))]) == 1
    total = args.rounds * args.processes
    print("unusable-history: %d rounds of %d processes meeting an unusable history at once (%d records)" %
          (args.rounds, args.processes, total))
    print("  %d records kept, %d lost, %d said \"not recorded\"; the unusable file moved aside exactly once in "
          "%d of %d rounds" % (kept, lost, told_not_recorded, rounds_with_one_aside, args.rounds))
    return 0 if lost == 0 and rounds_with_one_aside == args.rounds else 1


def history_counts(home, key):
    db = sqlite3.connect(home.data("history.sqlite"))
    kluster = db.execute("SELECT id FROM klusters WHERE key = ?", (key,)).fetchone()
    if not kluster:
        return 0, 0, 0
    samples = db.execute("SELECT COUNT(*) FROM samples WHERE kluster = ?", kluster).fetchone()[0]
    open_ = db.execute("SELECT COUNT(*) FROM intervals WHERE kluster = ? AND resolved_at IS NULL",
                       kluster).fetchone()[0]
    resolved = db.execute("SELECT COUNT(*) FROM intervals WHERE kluster = ? AND resolved_at IS NOT NULL",
                          kluster).fetchone()[0]
    db.close()
    return samples, open_, resolved


def skewed_clock(programs, args):
    sim = Simulator(programs)
    home = Home(sim.endpoints["authUrl"])
    try:
        record = lambda kluster: cli(programs, home, "check", "--cloud", "sim", "--kluster", kluster, "--record")
        for _ in range(6):
            record("legacy")
        legacy_before = history_counts(home, "sim/RegionOne/legacy")[0]
        # The cloud's clock runs 40 days ahead: its records are on this machine's clock all the same.
        sim.admin("POST", "/clock/advance", {"seconds": 40 * 86400})
        for _ in range(7):
            record("demo")
        legacy_after = history_counts(home, "sim/RegionOne/legacy")[0]
        demo = history_counts(home, "sim/RegionOne/demo")
        # Its clock steps back; a finding is repaired: resolved on this refresh.
        sim.admin("POST", "/clock/advance", {"seconds": -40 * 86400 - 3600})
        cli(programs, home, "repair", "--cloud", "sim", "--kluster", "demo", "--finding",
            "instance-error:kks-demo-pool-t5y6u", "--yes")
        record("demo")
        db = sqlite3.connect(home.data("history.sqlite"))
        resolved = db.execute("SELECT COUNT(*) FROM intervals WHERE finding = ? AND resolved_at IS NOT NULL",
                              ("instance-error:kks-demo-pool-t5y6u",)).fetchone()[0]
        repairs = db.execute("SELECT COUNT(*) FROM repairs").fetchone()[0]
        states = db.execute("SELECT COUNT(*) FROM states s JOIN klusters k ON k.id = s.kluster "
                            "WHERE k.key = 'sim/RegionOne/demo'").fetchone()[0]
        db.close()
        print("skewed-clock: legacy recorded 6 times; demo 7 times with the cloud 40 days ahead")
        print("  legacy's samples: %d before, %d after (nothing pruned)" % (legacy_before, legacy_after))
        print("  demo: %d samples, %d findings open (recorded as refreshes, not samples only)" % demo[:2])
        print("  the clock stepped back 40 days and an hour, the ERROR instance repaired: resolved %d time(s); "
              "%d repair(s) on the trends; %d states kept" % (resolved, repairs, states))
        return 0 if legacy_before == legacy_after == 6 and demo[1] > 0 and resolved == 1 and repairs == 1 \
            else 1
    finally:
        sim.stop()


def console_and_writers(programs, args):
    # The soak keeps its files where Qt's test mode puts them: HOME/.qttest/share/flightdeck.
    home = Home()
    home.env["XDG_DATA_HOME"] = os.path.join(home.dir, ".qttest/share")
    soak = subprocess.Popen([programs.soak, "--klusters", "120", "--seconds", str(args.seconds), "--repair-ms",
                             "0", "--refresh-ms", "10000"], env=home.env, cwd=home.dir,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    time.sleep(min(30, args.seconds // 4))
    snapshot = os.path.join(ROOT, "examples/broken-routes")
    writers, per = 4, 25
    refused = 0
    processes = []
    for w in range(writers):
        script = "for i in $(seq %d); do %s check --snapshot %s --record >/dev/null 2>>%s/writer%d.err; " \
                 "sleep 0.5; done" % (per, programs.cli, snapshot, home.dir, w)
        processes.append(subprocess.Popen(["bash", "-c", script], env=home.env, cwd=home.dir))
    for p in processes:
        p.wait()
    for w in range(writers):
        with open(os.path.join(home.dir, "writer%d.err" % w)) as f:
            refused += f.read().count("not recorded")
    out, _ = soak.communicate(timeout=args.seconds + 300)
    refreshes = next((l for l in out.splitlines() if l.startswith("soak: ") and "refreshes" in l), "")
    db = sqlite3.connect(home.data("history.sqlite").replace("data/flightdeck", ".qttest/share/flightdeck"))
    cli_samples = db.execute("SELECT COUNT(*) FROM samples s JOIN klusters k ON k.id = s.kluster "
                             "WHERE k.key NOT LIKE 'sim/%'").fetchone()[0]
    console_samples = db.execute("SELECT COUNT(*) FROM samples s JOIN klusters k ON k.id = s.kluster "
                                 "WHERE k.key LIKE 'sim/%'").fetchone()[0]
    integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
    db.close()
    print("console-and-writers: the console (120 klusters, a refresh every 10 s) and %d writers of %d records "
          "each, into one history" % (writers, per))
    print("  %s" % refreshes.strip())
    print("  the writers' records kept: %d of %d (%d said \"not recorded\"); the console's samples: %d; "
          "integrity_check: %s" % (cli_samples, writers * per, refused, console_samples, integrity))
    return 0 if cli_samples == writers * per and integrity == "ok" else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("probe", choices=["interrupted-repairs", "killed-recording", "unusable-history",
                                          "skewed-clock", "console-and-writers"])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--count", type=int)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--processes", type=int, default=8)
    parser.add_argument("--seconds", type=int, default=150)
    parser.add_argument("--seed", type=int, default=20261126)
    args = parser.parse_args()
    programs = Programs(args.build)
    probe = {"interrupted-repairs": (interrupted_repairs, 128), "killed-recording": (killed_recording, 210),
             "unusable-history": (unusable_history, None), "skewed-clock": (skewed_clock, None),
             "console-and-writers": (console_and_writers, None)}[args.probe]
    if args.count is None:
        args.count = probe[1]
    started = time.time()
    status = probe[0](programs, args)
    print("  (%.0f s)" % (time.time() - started))
    return status


if __name__ == "__main__":
    sys.exit(main())
