#!/usr/bin/env python3
"""Model default's portfolio under a CPU limit from each arm's solo runs.

Used to choose the starts, shares and caps of engine/analyses.go
defaultArms (doc/perf/2026-12-03-default-caps.md). Not run by CI.

  default-sim.py ARMS.csv SELECTIONS.json PLAN.py [--limit 25] [-v]

ARMS.csv is the results.csv of
  reverify bench @tasks --timeout 15s --jobs 2 --config \
      value,value-cegar,symex-cegar,predicate-cegar,k-induction,bmc
(one row per task and arm). SELECTIONS.json maps each task's .yml path to
the `selection` of its property in `reverify check --svcomp TASK --json`
(the class its features give: "counting: 1 loop ..."). PLAN.py defines C, a dict from class to a list of arms
(name, weight, after s, probe s[, cap s]) in defaultArms' order; a class
it does not name gets the schedule of CURRENT below.

The model is strategy.PortfolioOn on one slot: every quantum (20 ms,
growing with the elapsed time to 1 s) the slot goes to an arm still in
its probe, else to the arm with the least executed time per weight among
those whose After the executed total has reached (a late arm starts at
the least virtual time of those taking turns), ties to the earlier; an
arm ends at its solo decision, at its solo end without a verdict (it
gave up), or at its cap. The first decision ends the portfolio. BASE is
the process's own start, paid once. The Go scheduler is the authority
(TestPortfolio* in engine/strategy); this model ignores the quantum's
overhead and the arms' memory, and a solo timeout counts as running to
the limit. k-induction's probe in `default` ends at its milestone (its
attempt at k = 1 over, undecided), after which its weight drops; ARMS.csv
does not record when that is, so the model holds the probe until the
arm decides, ends, or reaches the probe's length, and keeps the weight:
it overstates the cost of that probe on the loops k-induction does not
prove (doc/perf/2026-12-04-milestones.md measures the real schedule).

Prints, over the tasks some arm decides: how many the plan decides, the
median and 90th percentile (nearest rank) of default's CPU time over the
fastest arm's, and the tasks lost (some arm decides within half the
limit, the plan not within the limit).
"""
import csv
import json
import math
import statistics
import sys

ARMS = ["value", "value-cegar", "symex-cegar", "predicate-cegar", "k-induction", "bmc"]
BASE = 0.018  # the fastest runs take 0.020 s: parsing, the CFA, the process

CURRENT = {
    "counting": [("value", 2, 0, 0.15), ("symex-cegar", 1, 2, 0.1), ("bmc", 1, 0.05, 0, 4),
                 ("predicate-cegar", 4, 0.3, 0, 4), ("k-induction", 1, 0.5, 0, 4), ("value-cegar", 1, 4, 0)],
    "arrays": [("value", 8, 0, 0.6), ("symex-cegar", 1, 2, 0), ("bmc", 1, 0.05, 0, 1),
               ("predicate-cegar", 2, 0.3, 0, 1), ("k-induction", 1, 0.5, 0, 1), ("value-cegar", 1, 4, 0)],
    "invariant": [("value", 1, 0.1, 0, 1), ("bmc", 4, 0, 0), ("k-induction", 8, 0, 2.0),
                  ("predicate-cegar", 8, 0.05, 0.7, 6), ("symex-cegar", 1, 0.5, 0, 1), ("value-cegar", 1, 4, 0, 1)],
    "affine": [("value", 1, 2, 0, 1), ("k-induction", 8, 0, 2.0), ("bmc", 2, 0, 0.05), ("predicate-cegar", 4, 1, 0),
               ("symex-cegar", 1, 2, 0, 1), ("value-cegar", 1, 4, 0, 1)],
    "other": [("value", 1, 0, 0), ("bmc", 1, 0, 0), ("value-cegar", 1, 1, 0), ("symex-cegar", 1, 1, 0),
              ("predicate-cegar", 1, 2, 0), ("k-induction", 1, 2, 0)],
}


def arm_times(rows, task, cap):
    """Per arm: (own time to decide or None, own time to end)."""
    out = {}
    for a in ARMS:
        r = rows.get((task, a))
        if r is None:
            out[a] = (None, math.inf)
            continue
        cpu = float(r["cpu_s"])
        own = max(cpu - BASE, 0.001)
        if r["verdict"] in ("TRUE", "FALSE") and cpu <= cap:
            out[a] = (own, own)
        elif r["verdict"] == "UNKNOWN" and "timeout" not in r["reason"] and "memory" not in r["reason"]:
            out[a] = (None, own)
        else:
            out[a] = (None, math.inf)
    return out


def simulate(plan, times, limit):
    """Own CPU time until the first decision, or None within limit."""
    n = len(plan)
    used, alive, joined, vbase = [0.0] * n, [True] * n, [False] * n, [0.0] * n
    elapsed = 0.0
    while elapsed < limit:
        q = min(max(elapsed / 16, 0.02), 1.0)
        total = sum(used)
        probing = [i for i in range(n) if alive[i] and used[i] < plan[i][3]]
        elig = [i for i in range(n) if alive[i] and i not in probing and plan[i][2] <= total]
        if not elig and not probing:
            rest = [i for i in range(n) if alive[i]]
            if not rest:
                return None
            elig = [min(rest, key=lambda i: plan[i][2])]

        def vt(i):
            return vbase[i] + used[i] / plan[i][1]
        js = [vt(i) for i in elig if joined[i]]
        least = min(js) if js else 0.0
        for i in elig:
            if not joined[i]:
                joined[i], vbase[i] = True, least
        i = (probing + sorted(elig, key=lambda i: (vt(i), i)))[0]
        dec, end = times[plan[i][0]]
        cap = plan[i][4] if len(plan[i]) > 4 else 0
        if cap:
            if dec is not None and dec > cap:
                dec = None
            end = min(end, cap)
        stop = end if dec is None else dec
        run = min(q, stop - used[i], limit - elapsed)
        if plan[i][3] > used[i]:
            run = min(run, plan[i][3] - used[i])
        used[i] += run
        elapsed += run
        if used[i] >= stop - 1e-9:
            if dec is not None:
                return elapsed
            alive[i] = False
    return None


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    limit = 25.0
    if "--limit" in sys.argv:
        limit = float(sys.argv[sys.argv.index("--limit") + 1])
        args.remove(sys.argv[sys.argv.index("--limit") + 1])
    rows = {(r["task"], r["config"]): r for r in csv.DictReader(open(args[0]))}
    sel = json.load(open(args[1]))
    env = {}
    exec(open(args[2]).read(), env)
    plans = dict(CURRENT, **env.get("C", {}))
    ratios, lost, decided = [], [], 0
    for task in sorted({t for t, _ in rows}):
        times = arm_times(rows, task, limit)
        solo = [float(rows[(task, a)]["cpu_s"]) for a in ARMS
                if (task, a) in rows and rows[(task, a)]["verdict"] in ("TRUE", "FALSE")]
        if not solo:
            continue
        best = min(solo)
        cls = sel.get(task, "").split(":")[0]
        s = simulate(plans.get(cls, plans["other"]), times, limit - BASE)
        if s is None:
            if best <= limit / 2:
                lost.append(task)
            continue
        decided += 1
        ratios.append(((BASE + s) / best, task))
        if "-v" in sys.argv:
            print(f"{(BASE + s) / best:6.2f}  {task}")
    rs = sorted(r for r, _ in ratios)
    p90 = rs[max(0, math.ceil(0.9 * len(rs)) - 1)]
    print(f"decided {decided}; ratio median {statistics.median(rs):.2f}, p90 {p90:.2f}; lost {len(lost)}")
    for t in lost:
        print("  lost", t)


if __name__ == "__main__":
    main()
