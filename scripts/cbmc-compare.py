#!/usr/bin/env python3
"""Run CBMC next to reverify: SV-COMP tasks and CBMC starter-kit proofs.

Produces the CBMC columns of doc/cbmc-comparison.md. Not run by CI; it needs
a CBMC build (cbmc, goto-cc, goto-instrument in the directory given by
--bin) and the task files / proof checkouts, none of which is part of this
repository.

  cbmc-compare.py svcomp --bin DIR --csv OUT.csv [--cpu 10] [--mem-mib 4096] TASK.yml...
      One SV-COMP task per .yml (unreach-call, valid-memsafety or
      valid-memcleanup). The program is compiled with goto-cc (-m32 for
      ILP32) and checked by iterative deepening: for k = 1, 2, 4, 8, ...
      first `cbmc --unwind k --no-unwinding-assertions --stop-on-fail`
      (a failure is a violation: paths beyond the bound are cut, never
      assumed), then, if that passes, the same with --unwinding-assertions
      (passing means every loop is fully unwound: TRUE); a failing
      unwinding assertion moves to the next k. This is the scheme of the
      SV-COMP CBMC wrapper (github.com/diffblue/cprover-sv-comp,
      cbmc_wrapper.py), with a doubling bound. reach_error gets the body
      assert(false) (goto-instrument --generate-function-body, what the
      wrapper does; equivalent to replacing each call by
      __CPROVER_assert(0, "")); __VERIFIER_nondet_* stay bodiless (CBMC
      returns any value); __VERIFIER_error and __VERIFIER_assume are CBMC
      built-ins. --no-standard-checks keeps CBMC 6's default checks (and
      malloc returning NULL) off, so only the task's property is checked:
      MemSafety adds --pointer-check --memory-leak-check --bounds-check
      --no-assertions (and --memory-cleanup-check for valid-memcleanup).
      The CPU limit covers every process of a task (goto-cc included):
      each child runs under RLIMIT_CPU set to what is left.

  cbmc-compare.py proofs --bin DIR --csv OUT.csv [--cpu 120] [--make VAR=VALUE]... PROOFDIR...
      One starter-kit proof per directory: the proof's own Makefile
      (../Makefile.common) builds the goto binary and runs cbmc exactly as
      the starter kit does (goto-cc of PROOF_SOURCES and PROJECT_SOURCES
      with DEFINES and INCLUDES, goto-instrument --remove-function-body,
      linking with --function HARNESS_ENTRY, --nondet-static,
      --slice-global-inits, --drop-unused-functions, then cbmc with the
      Makefile's CBMCFLAGS and CHECKFLAGS, UNWINDSET and the default
      --unwind 1, unwinding assertions on). make is given this script as
      LITANI (subcommand `litani` below), which runs each job at once.
      cbmc runs under RLIMIT_CPU = --cpu seconds; its XML result and the
      property list (--show-properties) are parsed per property.
      EXTERNAL_SAT_SOLVER is emptied (kissat is not installed here: CBMC's
      built-in CaDiCaL solves). --make BACKEND_OPTION= solves a proof that
      asks for an SMT back end (--smt2, --bitwuzla) with the SAT solver;
      --make CBMCFLAGS= must not be used for that: a command-line value
      replaces what the Makefile adds to CBMCFLAGS (--object-bits, the
      UNWINDSET, the default --unwind).

  cbmc-compare.py table-svcomp OUT.csv...
      Markdown rows in the format of doc/perf's bench tables (correct
      TRUE, correct FALSE, wrong, UNKNOWN, nearest-rank CPU median / p90 /
      max of correct results, as report/bench.Quantile).

  cbmc-compare.py table-proofs CBMC.csv REVERIFY.log... [--md REVERIFY.md...]
      Per proof: reverify's decided/total (from `reverify proofs` logs) next
      to CBMC's result, assertion properties failed/total, all properties
      failed/total and time; and per assertion (matched by file:line) any
      reverify TRUE that CBMC refutes.

  cbmc-compare.py litani add-job --command CMD [--stdout-file F] ...
      A stand-in for litani used by the starter-kit Makefiles: runs CMD
      with sh at once; `init` and `run-build` do nothing.
"""

import argparse
import csv
import math
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

# ---------------------------------------------------------------- litani shim


def litani(argv):
    """Run a litani add-job at once (the starter kit's Makefile calls it)."""
    if not argv or argv[0] in ("init", "run-build", "print-capabilities"):
        return 0
    if argv[0] != "add-job":
        print("cbmc-compare litani: unsupported subcommand %r" % argv[0], file=sys.stderr)
        return 2
    opts = {"--command": None, "--stdout-file": None, "--stderr-file": None}
    ignore, outputs = set(), []
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in opts and i + 1 < len(argv):
            opts[a] = argv[i + 1]
            i += 2
        elif a in ("--ignore-returns", "--outputs"):
            i += 1
            while i < len(argv) and not argv[i].startswith("--"):
                if a == "--outputs":
                    outputs.append(argv[i])
                else:
                    ignore.add(int(argv[i]))
                i += 1
        else:
            i += 1
    cmd = opts["--command"]
    if cmd is None:
        print("cbmc-compare litani: add-job without --command", file=sys.stderr)
        return 2
    for o in outputs + [x for x in (opts["--stdout-file"], opts["--stderr-file"]) if x]:
        if os.path.dirname(o):
            os.makedirs(os.path.dirname(o), exist_ok=True)  # litani creates its outputs' directories
    is_cbmc = os.environ.get("CBMC_COMPARE_CBMC", "\0") in cmd.split()[:1]
    out = open(opts["--stdout-file"], "w") if opts["--stdout-file"] else None
    err = open(opts["--stderr-file"], "w") if opts["--stderr-file"] else (out or None)
    cpu = float(os.environ.get("CBMC_COMPARE_CPU", "0")) if is_cbmc else 0
    mem = int(os.environ.get("CBMC_COMPARE_MEM_MIB", "0")) * 1024 * 1024 if is_cbmc else 0
    t0 = time.time()
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    rc = subprocess.call(["sh", "-c", cmd], stdout=out, stderr=err or subprocess.STDOUT,
                         preexec_fn=limiter(cpu, mem))
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if is_cbmc and os.environ.get("CBMC_COMPARE_TIMES"):
        with open(os.environ["CBMC_COMPARE_TIMES"], "a") as f:
            f.write("%d %.2f %.2f\n" % (rc, (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime),
                                        time.time() - t0))
    if rc != 0 and rc not in ignore and not is_cbmc:
        return rc
    return 0


def limiter(cpu, mem):
    """A preexec_fn setting RLIMIT_CPU to cpu seconds and RLIMIT_AS to mem bytes (0: none)."""
    def f():
        if cpu > 0:
            s = max(1, int(math.ceil(cpu)))
            resource.setrlimit(resource.RLIMIT_CPU, (s, s + 1))
        if mem > 0:
            resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    return f


# ---------------------------------------------------------------- SV-COMP

SUBPROPS = [
    # (regular expression on the violated property's description, subproperty)
    (r"__CPROVER_memory_leak == NULL|dynamically allocated memory never freed", "valid-memtrack"),
    (r"dynamically allocated memory not deallocated|memory-cleanup", "valid-memcleanup"),
    (r"dereference failure", "valid-deref"),
    (r"array.* (lower|upper) bound", "valid-deref"),
    (r"mem(cpy|set|move) (source region readable|destination region writeable)", "valid-deref"),
    (r"double free|free argument must be NULL or valid pointer|free called for stack-allocated object",
     "valid-free"),
    (r"free argument has offset zero|free argument (is|must be) dynamic object", "valid-free"),
]


def read_task(path):
    """The task of an SV-COMP .yml: input file, property kind, expected verdict, subproperty, data model."""
    text = open(path).read()
    m = re.search(r"input_files:\s*'?([^'\n]+)'?", text)
    inp = os.path.join(os.path.dirname(path), m.group(1).strip())
    kind = expected = sub = None
    for block in re.split(r"\n\s*-\s*property_file:", text)[1:]:
        prp = block.split("\n", 1)[0].strip()
        k = None
        if prp.endswith("unreach-call.prp"):
            k = "unreach-call"
        elif prp.endswith("valid-memsafety.prp"):
            k = "valid-memsafety"
        elif prp.endswith("valid-memcleanup.prp"):
            k = "valid-memcleanup"
        if k is None or (kind == "unreach-call"):
            continue
        kind = k
        e = re.search(r"expected_verdict:\s*(true|false)", block)
        expected = e.group(1) if e else None
        s = re.search(r"subproperty:\s*(\S+)", block)
        sub = s.group(1) if s else None
    dm = re.search(r"data_model:\s*(\S+)", text)
    if kind == "valid-memcleanup" and expected == "false" and sub is None:
        sub = "valid-memcleanup"
    return inp, kind, expected, sub, (dm.group(1) if dm else "ILP32")


class Budget:
    """CPU seconds left for the child processes of one task."""

    def __init__(self, cpu, mem_mib):
        self.cpu, self.mem = cpu, mem_mib * 1024 * 1024
        self.used = 0.0
        self.t0 = time.time()

    def left(self):
        return self.cpu - self.used

    def run(self, argv):
        """Run argv within the budget: (exit code or None on timeout, stdout+stderr)."""
        left = self.left()
        if left <= 0.05:
            return None, "CPU budget used up"
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               preexec_fn=limiter(left, self.mem), timeout=max(60, 6 * left))
            rc, out = p.returncode, p.stdout.decode(errors="replace")
        except subprocess.TimeoutExpired as e:
            rc, out = None, "wall-clock guard"
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.used += (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)
        if rc is not None and rc < 0:  # killed by a signal: SIGXCPU/SIGKILL at the limit
            return None, out
        if self.used > self.cpu:
            return None, out
        return rc, out


def violated(out):
    """The description of the property CBMC reports violated (plain output, --stop-on-fail)."""
    lines = out.splitlines()
    for i, l in enumerate(lines):
        if l.startswith("Violated property:"):
            return " ".join(x.strip() for x in lines[i + 1:i + 4])
    fails = [l for l in lines if l.rstrip().endswith(": FAILURE")]
    return " ".join(fails)


def classify(desc, kind):
    for pat, sp in SUBPROPS:
        if re.search(pat, desc):
            if sp == "valid-memtrack" and kind == "valid-memcleanup":
                return "valid-memcleanup"
            return sp
    return None


def run_task(bindir, yml, cpu, mem_mib, keep):
    inp, kind, expected, sub, dm = read_task(yml)
    b = Budget(cpu, mem_mib)
    row = {"task": os.path.splitext(os.path.basename(yml))[0], "property": kind, "expected": expected,
           "expected_sub": sub or "", "verdict": "UNKNOWN", "sub": "", "k": "", "reason": ""}
    tmp = tempfile.mkdtemp(prefix="cbmc-svcomp-")
    try:
        gb = os.path.join(tmp, "task.gb")
        m = "-m32" if dm == "ILP32" else "-m64"
        rc, out = b.run([os.path.join(bindir, "goto-cc"), m, "--function", "main", inp, "-o", gb])
        if rc != 0:
            row["reason"] = "goto-cc: " + (last_error(out) if rc is not None else "timeout")
            return finish(row, b)
        if kind == "unreach-call" and re.search(r"\breach_error\b", open(inp, errors="replace").read()):
            rc, out = b.run([os.path.join(bindir, "goto-instrument"), gb, gb,
                             "--remove-function-body", "reach_error",
                             "--generate-function-body", "reach_error",
                             "--generate-function-body-options", "assert-false"])
            if rc != 0:
                row["reason"] = "goto-instrument: " + (last_error(out) if rc is not None else "timeout")
                return finish(row, b)
        props = []
        if kind == "valid-memsafety":
            props = ["--pointer-check", "--memory-leak-check", "--bounds-check", "--no-assertions"]
        elif kind == "valid-memcleanup":
            props = ["--pointer-check", "--memory-leak-check", "--memory-cleanup-check", "--bounds-check",
                     "--no-assertions"]
        cbmc = [os.path.join(bindir, "cbmc"), "--no-standard-checks", "--slice-formula", "--stop-on-fail", "--trace",
                "--object-bits", "11"] + props
        k = 1
        while True:
            row["k"] = str(k)
            rc, out = b.run(cbmc + ["--unwind", str(k), "--no-unwinding-assertions", gb])
            if rc is None:
                row["reason"] = "timeout (CPU %gs) at unwind %d, bug search" % (cpu, k)
                break
            if rc == 10:
                desc = violated(out)
                row["verdict"], row["sub"] = "FALSE", classify(desc, kind) or ""
                if kind == "unreach-call":
                    row["sub"] = ""
                row["reason"] = desc[:120]
                break
            if rc != 0:
                row["reason"] = "cbmc exit %d: %s" % (rc, last_error(out))
                break
            rc, out = b.run(cbmc + ["--unwind", str(k), "--unwinding-assertions", gb])
            if rc is None:
                row["reason"] = "timeout (CPU %gs) at unwind %d, unwinding assertions" % (cpu, k)
                break
            if rc == 0:
                row["verdict"] = "TRUE"
                break
            if rc == 10:
                desc = violated(out)
                if "unwinding assertion" in desc or re.search(r"\.unwind\.\d+", desc):
                    k *= 2
                    continue
                row["verdict"], row["sub"] = "FALSE", classify(desc, kind) or ""
                row["reason"] = desc[:120]
                break
            row["reason"] = "cbmc exit %d: %s" % (rc, last_error(out))
            break
        return finish(row, b)
    finally:
        if keep:
            print("kept", tmp, file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def last_error(out):
    for l in reversed(out.splitlines()):
        if "error" in l.lower() or "exception" in l.lower():
            return l.strip()[:160]
    ls = out.strip().splitlines()
    return ls[-1][:160] if ls else ""


def finish(row, b):
    row["cpu_s"] = "%.2f" % b.used
    row["wall_s"] = "%.2f" % (time.time() - b.t0)
    v, e = row["verdict"], row["expected"]
    if v == "UNKNOWN" or e is None:
        row["status"] = "unknown"
    elif v == "TRUE":
        row["status"] = "correct" if e == "true" else "wrong"
    else:
        ok = e == "false" and (not row["expected_sub"] or row["sub"] == row["expected_sub"])
        row["status"] = "correct" if ok else "wrong"
    return row


SV_FIELDS = ["task", "property", "expected", "expected_sub", "verdict", "sub", "status", "cpu_s", "wall_s",
             "k", "reason"]


def cmd_svcomp(a):
    rows = []
    with open(a.csv, "w", newline="") as f:
        w = csv.DictWriter(f, SV_FIELDS)
        w.writeheader()
        for y in a.tasks:
            r = run_task(a.bin, y, a.cpu, a.mem_mib, a.keep)
            rows.append(r)
            w.writerow(r)
            f.flush()
            print("%-40s %-17s exp %-5s %-8s %-15s %-8s %6ss k=%s %s" % (
                r["task"], r["property"], r["expected"], r["verdict"], r["sub"], r["status"], r["cpu_s"],
                r["k"], r["reason"][:70]), flush=True)
    return 0


def quantile(sorted_vals, q):
    """Nearest-rank q-quantile, as report/bench.Quantile."""
    if not sorted_vals:
        return 0.0
    i = max(0, int(math.ceil(q * len(sorted_vals))) - 1)
    return sorted_vals[i]


def cmd_table_svcomp(a):
    print("| CBMC 6.3.1 | tasks | correct TRUE | correct FALSE | wrong | UNKNOWN | "
          "CPU median / p90 / max (correct) | CPU total |")
    print("|---|--:|--:|--:|--:|--:|---|--:|")
    for path in a.csv:
        rows = list(csv.DictReader(open(path)))
        ct = sum(1 for r in rows if r["status"] == "correct" and r["verdict"] == "TRUE")
        cf = sum(1 for r in rows if r["status"] == "correct" and r["verdict"] == "FALSE")
        wr = sum(1 for r in rows if r["status"] == "wrong")
        un = sum(1 for r in rows if r["status"] == "unknown")
        cpu = sorted(float(r["cpu_s"]) for r in rows if r["status"] == "correct")
        tot = sum(float(r["cpu_s"]) for r in rows)
        print("| %s | %d | %d | %d | %d | %d | %.2f / %.2f / %.2f s | %.0f s |" % (
            os.path.basename(path), len(rows), ct, cf, wr, un, quantile(cpu, .5), quantile(cpu, .9),
            quantile(cpu, 1), tot))
    return 0


# ---------------------------------------------------------------- proofs

PROOF_FIELDS = ["proof", "result", "cpu_s", "wall_s", "build_s", "assert_total", "assert_failed",
                "assert_unknown", "other_total", "other_failed", "unwind_failed", "failed_assertions",
                "reason"]


def make_var(proofdir, name, env):
    """The value of a make variable of the proof's Makefile."""
    p = subprocess.run(["make", "-s", "--no-print-directory", "-f", "Makefile", "-f", "-",
                        "cbmc-compare-print"], cwd=proofdir, env=env,
                       input=("cbmc-compare-print:\n\t@echo '$(%s)'\n" % name).encode(),
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return p.stdout.decode().strip()


def parse_properties(path):
    """property name -> (class, file, line, description) from cbmc --show-properties --xml-ui."""
    props = {}
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, FileNotFoundError):
        return props
    for p in root.iter("property"):
        loc = p.find("location")
        d = p.find("description")
        props[p.get("name")] = (p.get("class") or "", loc.get("file", "") if loc is not None else "",
                                loc.get("line", "") if loc is not None else "",
                                d.text if d is not None else "")
    return props


def parse_results(path):
    """property name -> status (SUCCESS, FAILURE, UNKNOWN...) and the final message, from --xml-ui."""
    res, msg = {}, ""
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, FileNotFoundError):
        # A killed cbmc leaves an unterminated document: read the results it printed.
        try:
            text = open(path, errors="replace").read()
        except FileNotFoundError:
            return res, "no result"
        for m in re.finditer(r'<result property="([^"]+)" status="([A-Z]+)"', text):
            res[m.group(1)] = m.group(2)
        return res, "incomplete"
    for r in root.iter("result"):
        if r.get("property"):
            res[r.get("property")] = r.get("status")
    for c in root.iter("cprover-status"):
        msg = c.text or ""
    return res, msg


def is_assertion(name, cls, f):
    """An assertion-like property of the proof or project code, as reverify's `proofs` counts them:
    assert, __CPROVER_assert, __CPROVER_precondition/postcondition outside CBMC's own library."""
    if cls in ("assertion",):
        return not f.startswith("<builtin")
    if cls.startswith("precondition") or cls.startswith("postcondition"):
        return not f.startswith("<builtin")
    return False


def run_proof(bindir, proofdir, cpu, mem_mib, extra=()):
    proofdir = os.path.abspath(proofdir)
    name = os.path.basename(proofdir)
    env = dict(os.environ)
    env.update({"CBMC_COMPARE_CBMC": os.path.join(bindir, "cbmc"), "CBMC_COMPARE_CPU": str(cpu),
                "CBMC_COMPARE_MEM_MIB": str(mem_mib)})
    times = os.path.join(proofdir, "logs", "cbmc-compare-times.txt")
    os.makedirs(os.path.dirname(times), exist_ok=True)
    if os.path.exists(times):
        os.remove(times)
    env["CBMC_COMPARE_TIMES"] = times
    shim = "%s %s litani" % (shlex.quote(sys.executable), shlex.quote(os.path.abspath(__file__)))
    mk = ["make", "-B", "LITANI=" + shim, "CBMC=" + os.path.join(bindir, "cbmc"),
          "GOTO_CC=" + os.path.join(bindir, "goto-cc"),
          "GOTO_INSTRUMENT=" + os.path.join(bindir, "goto-instrument"),
          "GOTO_ANALYZER=" + os.path.join(bindir, "goto-analyzer"), "EXTERNAL_SAT_SOLVER=",
          "CBMC_TIMEOUT=%d" % int(cpu)] + list(extra)
    row = {"proof": name, "result": "ERROR", "reason": ""}
    t0 = time.time()
    logdir = os.path.join(proofdir, "logs")
    p = subprocess.run(mk + [os.path.join(logdir, "property.xml")], cwd=proofdir, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    row["build_s"] = "%.1f" % (time.time() - t0)
    if p.returncode != 0:
        row["reason"] = "build: " + last_error(p.stdout.decode(errors="replace"))
        return row
    props = parse_properties(os.path.join(logdir, "property.xml"))
    open(times, "w").close()
    if os.path.exists(os.path.join(logdir, "result.xml")):
        os.remove(os.path.join(logdir, "result.xml"))
    # result.xml depends on the goto binary just built: -o keeps make from rebuilding it.
    goto = make_var(proofdir, "HARNESS_GOTO", env) + ".goto"
    p = subprocess.run(mk[:1] + mk[2:] + ["-o", goto, os.path.join(logdir, "result.xml")], cwd=proofdir,
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    tl = open(times).read().split()
    rc = int(tl[0]) if tl else -1
    row["cpu_s"], row["wall_s"] = (tl[1], tl[2]) if tl else ("", "")
    res, msg = parse_results(os.path.join(logdir, "result.xml"))
    at = af = au = ot = of = uf = 0
    failed = []
    for pname, (cls, f, line, desc) in sorted(props.items()):
        st = res.get(pname, "UNKNOWN")
        if cls == "unwind" or ".unwind." in pname:
            uf += st == "FAILURE"
            continue
        if is_assertion(pname, cls, f):
            at += 1
            af += st == "FAILURE"
            au += st not in ("SUCCESS", "FAILURE")
            if st == "FAILURE":
                failed.append("%s:%s" % (rel(f), line))
        else:
            ot += 1
            of += st == "FAILURE"
    row.update({"assert_total": at, "assert_failed": af, "assert_unknown": au, "other_total": ot,
                "other_failed": of, "unwind_failed": uf, "failed_assertions": " ".join(failed)})
    if rc == 0:
        row["result"] = "SUCCESSFUL"
    elif rc == 10:
        row["result"] = "FAILED"
    elif rc < 0 or rc >= 128 or (row["cpu_s"] and float(row["cpu_s"]) >= cpu - 0.5):
        row["result"] = "TIMEOUT"
        row["reason"] = "CPU limit %gs (%d results printed)" % (cpu, len(res))
    else:
        row["result"] = "ERROR"
        row["reason"] = "cbmc exit %d %s" % (rc, msg)
    return row


def rel(f):
    """A path relative to the checkout (coreHTTP/..., aws-c-common/...), for matching."""
    for root in ("coreHTTP", "aws-c-common"):
        i = f.find("/" + root + "/")
        if i >= 0:
            return f[i + 1:]
    return f


def cmd_proofs(a):
    exists = os.path.exists(a.csv)
    done = set()
    if exists:
        done = {r["proof"] for r in csv.DictReader(open(a.csv))}
    with open(a.csv, "a", newline="") as f:
        w = csv.DictWriter(f, PROOF_FIELDS)
        if not exists:
            w.writeheader()
        for d in a.proofs:
            if os.path.basename(os.path.abspath(d)) in done or not os.path.exists(os.path.join(d, "Makefile")):
                continue
            r = run_proof(a.bin, d, a.cpu, a.mem_mib, a.make)
            w.writerow(r)
            f.flush()
            print("%-45s %-10s cpu %6ss asserts %s/%s failed, other %s/%s failed, unwind %s failed %s" % (
                r["proof"], r["result"], r.get("cpu_s", ""), r.get("assert_failed", ""),
                r.get("assert_total", ""), r.get("other_failed", ""), r.get("other_total", ""),
                r.get("unwind_failed", ""), r["reason"][:80]), flush=True)
    return 0


def parse_reverify_log(path):
    """proof -> list of (verdict, file:line) from `reverify proofs` output."""
    out, cur = {}, None
    for l in open(path, errors="replace"):
        m = re.match(r"== (\S+)", l)
        if m:
            cur = m.group(1)
            out.setdefault(cur, [])
            continue
        m = re.match(r"\s+(TRUE|FALSE|UNKNOWN)\s+(\S+?):(\d+):\d+\s", l)
        if m and cur:
            out[cur].append((m.group(1), "%s:%s" % (rel(m.group(2)), m.group(3))))
    return out


def parse_reverify_md(path):
    """proof -> (properties, TRUE, FALSE, UNKNOWN, time) from a `reverify proofs` Markdown table."""
    out = {}
    for l in open(path, errors="replace"):
        c = [x.strip() for x in l.strip().strip("|").split("|")]
        if len(c) >= 6 and re.match(r"^\d+$", c[1] or "") and c[0] != "proof":
            out[c[0]] = (int(c[1]), int(c[2]), int(c[3]), int(c[4]), c[5])
    return out


def cmd_table_proofs(a):
    cb = {r["proof"]: r for r in csv.DictReader(open(a.csv))}
    logs = {}
    for l in a.logs:
        logs.update(parse_reverify_log(l))
    mds = {}
    for m in a.md or []:
        mds.update(parse_reverify_md(m))
    print("| proof | reverify decided / properties | reverify time (s) | CBMC result | CBMC assertions "
          "failed / total | CBMC all checks failed / total | CBMC CPU (s) | disagreement |")
    print("|---|--:|--:|---|--:|--:|--:|---|")
    tot = [0, 0, 0, 0]
    for name in sorted(cb):
        r = cb[name]
        md = mds.get(name)
        rv = "%d / %d" % (md[1] + md[2], md[0]) if md else "–"
        rt = md[4] if md else "–"
        dis = []
        failed = set(r["failed_assertions"].split())
        for v, loc in logs.get(name, []):
            if v == "TRUE" and loc in failed:
                dis.append("reverify TRUE, CBMC FAILURE at " + loc)
            if v == "FALSE" and r["result"] == "SUCCESSFUL":
                dis.append("reverify FALSE, CBMC SUCCESS at " + loc)
        ac = "%s / %s" % (r["assert_failed"], r["assert_total"]) if r["assert_total"] else "–"
        allc = ("%d / %d" % (int(r["assert_failed"]) + int(r["other_failed"]) + int(r["unwind_failed"]),
                             int(r["assert_total"]) + int(r["other_total"]))) if r["assert_total"] else "–"
        res = r["result"] + (" (" + r["reason"][:60] + ")" if r["reason"] and r["result"] != "TIMEOUT" else "")
        print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (name, rv, rt, res, ac, allc, r["cpu_s"] or "–",
                                                             "; ".join(dis)))
        if md:
            tot[0] += md[1] + md[2]
            tot[1] += md[0]
        if r["assert_total"]:
            tot[2] += int(r["assert_total"]) - int(r["assert_failed"]) - int(r["assert_unknown"])
            tot[3] += int(r["assert_total"])
    print("\nreverify decided %d of %d properties; CBMC passed %d of %d assertions" % tuple(tot))
    return 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "litani":
        return litani(sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("svcomp")
    s.add_argument("--bin", required=True)
    s.add_argument("--csv", required=True)
    s.add_argument("--cpu", type=float, default=10)
    s.add_argument("--mem-mib", type=int, default=4096)
    s.add_argument("--keep", action="store_true")
    s.add_argument("tasks", nargs="+")
    s = sub.add_parser("proofs")
    s.add_argument("--bin", required=True)
    s.add_argument("--csv", required=True)
    s.add_argument("--cpu", type=float, default=120)
    s.add_argument("--mem-mib", type=int, default=6144)
    s.add_argument("--make", action="append", default=[], metavar="VAR=VALUE",
                   help="a make variable for the proof's Makefile (repeatable), e.g. BACKEND_OPTION= to solve with the built-in SAT solver where a proof asks for --smt2 or --bitwuzla (starter-kit Makefiles; never CBMCFLAGS=, which on the command line also drops what the Makefile adds to it: --object-bits, the UNWINDSET, the default --unwind)")
    s.add_argument("proofs", nargs="+")
    s = sub.add_parser("table-svcomp")
    s.add_argument("csv", nargs="+")
    s = sub.add_parser("table-proofs")
    s.add_argument("csv")
    s.add_argument("logs", nargs="*")
    s.add_argument("--md", action="append")
    a = ap.parse_args()
    return {"svcomp": cmd_svcomp, "proofs": cmd_proofs, "table-svcomp": cmd_table_svcomp,
            "table-proofs": cmd_table_proofs}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
