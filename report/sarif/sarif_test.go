package sarif_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reverify/reverify/report/sarif"
	"github.com/reverify/reverify/results"
)

func sample(root string) *results.Report {
	file := filepath.Join(root, "src", "a b.c")
	return &results.Report{
		Schema: results.SchemaVersion, Engine: "0.1.0", Entry: "main", Config: "default",
		Properties: []results.PropertyReport{
			{ID: "main:x>0", File: file, Line: 12, Column: 3, Function: "main", Expression: "x > 0",
				Verdict: results.False, Reason: "counterexample confirmed by replay", Config: "value-cegar",
				Inputs: []results.InputJSON{
					{Source: "__VERIFIER_nondet_int", Type: "int", Value: 0, Line: 5},
					{Source: "__VERIFIER_nondet_int", Type: "int", Value: -3, Line: 7},
					{Source: "uninitialised y", Type: "int", Value: 9},
				},
				Steps: []results.StepJSON{
					{File: file, Line: 0, Op: "enter main"},
					{File: file, Line: 5, Op: "x = __VERIFIER_nondet_int()", Text: "int x = __VERIFIER_nondet_int();"},
					{File: file, Line: 7, Op: "y = __VERIFIER_nondet_int()"},
					{File: "", Line: 12, Op: "assume(!(x > 0))"},
				},
				Reproducer: "out/main_x_0.repro.c", SliceHash: "abc"},
			{ID: "f:p!=0", File: filepath.Join(root, "lib", "b.c"), Line: 4, Function: "f", Expression: "p != 0",
				Verdict: results.Unknown, Reason: "timeout after 60 s", Unmodelled: []string{"malloc"}},
			{ID: "g:1", File: filepath.Join(root, "lib", "b.c"), Line: 9, Function: "g", Expression: "1", Verdict: results.True},
			{ID: "h:2", File: filepath.Join(root, "lib", "b.c"), Line: 0, Function: "h", Expression: "2", Verdict: results.NotChecked},
		},
	}
}

// roundTrip writes the log of r and parses it back as generic JSON.
func roundTrip(t *testing.T, r *results.Report, opts sarif.Options) map[string]any {
	t.Helper()
	var buf bytes.Buffer
	if err := sarif.Write(&buf, r, opts); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("log is not JSON: %v\n%s", err, buf.String())
	}
	return doc
}

// checkSchema checks what the SARIF 2.1.0 schema requires of the parts
// reverify writes, and the invariants code scanning relies on.
func checkSchema(t *testing.T, doc map[string]any) {
	t.Helper()
	if doc["$schema"] != sarif.Schema {
		t.Errorf("$schema = %v", doc["$schema"])
	}
	if doc["version"] != "2.1.0" {
		t.Errorf("version = %v, want 2.1.0", doc["version"])
	}
	runs, _ := doc["runs"].([]any)
	if len(runs) != 1 {
		t.Fatalf("runs = %d, want 1", len(runs))
	}
	run := runs[0].(map[string]any)
	drv := run["tool"].(map[string]any)["driver"].(map[string]any)
	if drv["name"] != "reverify" {
		t.Errorf("driver.name = %v", drv["name"])
	}
	ruleIDs := map[string]int{}
	for i, r := range drv["rules"].([]any) {
		id, _ := r.(map[string]any)["id"].(string)
		if id == "" {
			t.Errorf("rule %d has no id", i)
		}
		ruleIDs[id] = i
	}
	results, ok := run["results"].([]any)
	if !ok {
		t.Fatalf("results missing")
	}
	for i, x := range results {
		res := x.(map[string]any)
		id, _ := res["ruleId"].(string)
		if _, ok := ruleIDs[id]; !ok {
			t.Errorf("result %d: ruleId %q is not a rule", i, id)
		}
		if int(res["ruleIndex"].(float64)) != ruleIDs[id] {
			t.Errorf("result %d: ruleIndex %v does not match ruleId %s", i, res["ruleIndex"], id)
		}
		switch res["level"] {
		case "error", "warning", "note", "none":
		default:
			t.Errorf("result %d: level %v", i, res["level"])
		}
		if txt, _ := res["message"].(map[string]any)["text"].(string); txt == "" {
			t.Errorf("result %d: empty message.text", i)
		}
		locs, _ := res["locations"].([]any)
		if len(locs) == 0 {
			t.Errorf("result %d: no locations", i)
		}
		var all []any
		all = append(all, locs...)
		for _, cf := range asSlice(res["codeFlows"]) {
			tfs := asSlice(cf.(map[string]any)["threadFlows"])
			if len(tfs) == 0 {
				t.Errorf("result %d: codeFlow without threadFlows", i)
			}
			for _, tf := range tfs {
				tls := asSlice(tf.(map[string]any)["locations"])
				if len(tls) == 0 {
					t.Errorf("result %d: threadFlow without locations", i)
				}
				for _, tl := range tls {
					all = append(all, tl.(map[string]any)["location"])
				}
			}
		}
		for _, l := range all {
			pl := l.(map[string]any)["physicalLocation"].(map[string]any)
			uri, _ := pl["artifactLocation"].(map[string]any)["uri"].(string)
			if uri == "" || strings.HasPrefix(uri, "/") || strings.HasPrefix(uri, "file:") || strings.Contains(uri, "..") {
				t.Errorf("result %d: artifactLocation.uri %q is not repository-relative", i, uri)
			}
			reg := pl["region"].(map[string]any)
			if line, _ := reg["startLine"].(float64); line < 1 {
				t.Errorf("result %d: region.startLine %v < 1", i, reg["startLine"])
			}
			if c, ok := reg["startColumn"].(float64); ok && c < 1 {
				t.Errorf("result %d: region.startColumn %v < 1", i, c)
			}
		}
		fp, _ := res["partialFingerprints"].(map[string]any)[sarif.FingerprintKey].(string)
		if len(fp) != 32 {
			t.Errorf("result %d: fingerprint %q", i, fp)
		}
	}
}

func asSlice(x any) []any { s, _ := x.([]any); return s }

func TestLog(t *testing.T) {
	root := t.TempDir()
	doc := roundTrip(t, sample(root), sarif.Options{RepoRoot: root, Category: "reverify/main"})
	checkSchema(t, doc)
	run := doc["runs"].([]any)[0].(map[string]any)
	drv := run["tool"].(map[string]any)["driver"].(map[string]any)
	if drv["version"] != "0.1.0" || drv["informationUri"] != sarif.DefaultInformationURI {
		t.Errorf("driver = %v", drv)
	}
	if got := len(drv["rules"].([]any)); got != 8 {
		t.Errorf("%d rules, want 8", got)
	}
	results := run["results"].([]any)
	if len(results) != 2 {
		t.Fatalf("%d results, want 2 (FALSE and UNKNOWN only)", len(results))
	}
	// Sorted by file: lib/b.c before src/a b.c.
	unk, viol := results[0].(map[string]any), results[1].(map[string]any)
	if unk["ruleId"] != sarif.RuleUnknown || unk["level"] != "warning" {
		t.Errorf("unknown result: %v %v", unk["ruleId"], unk["level"])
	}
	if viol["ruleId"] != sarif.RuleViolated || viol["level"] != "error" {
		t.Errorf("violated result: %v %v", viol["ruleId"], viol["level"])
	}
	msg := viol["message"].(map[string]any)["text"].(string)
	for _, want := range []string{"x > 0", "violated", "main", "counterexample confirmed", "__VERIFIER_nondet_int = 0 (line 5)", "= -3 (line 7)", "uninitialised y = 9"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if txt := unk["message"].(map[string]any)["text"].(string); !strings.Contains(txt, "timeout after 60 s") || !strings.Contains(txt, "malloc") {
		t.Errorf("unknown message %q", txt)
	}
	pl := viol["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
	if uri := pl["artifactLocation"].(map[string]any)["uri"]; uri != "src/a%20b.c" {
		t.Errorf("uri = %v, want src/a%%20b.c", uri)
	}
	if reg := pl["region"].(map[string]any); reg["startLine"] != 12.0 || reg["startColumn"] != 3.0 {
		t.Errorf("region = %v", reg)
	}
	tls := viol["codeFlows"].([]any)[0].(map[string]any)["threadFlows"].([]any)[0].(map[string]any)["locations"].([]any)
	var steps []string
	for _, tl := range tls {
		l := tl.(map[string]any)["location"].(map[string]any)
		line := l["physicalLocation"].(map[string]any)["region"].(map[string]any)["startLine"].(float64)
		steps = append(steps, fmt.Sprintf("%s @ %d", l["message"].(map[string]any)["text"], int(line)))
	}
	want := []string{
		"enter main @ 1",
		"int x = __VERIFIER_nondet_int(); [read: __VERIFIER_nondet_int = 0] @ 5",
		"y = __VERIFIER_nondet_int() [read: __VERIFIER_nondet_int = -3] @ 7",
		"assume(!(x > 0)) @ 12",
	}
	if strings.Join(steps, "\n") != strings.Join(want, "\n") {
		t.Errorf("thread flow:\n%s\nwant:\n%s", strings.Join(steps, "\n"), strings.Join(want, "\n"))
	}
	if run["automationDetails"].(map[string]any)["id"] != "reverify/main" {
		t.Errorf("automationDetails = %v", run["automationDetails"])
	}
}

func TestAllVerdicts(t *testing.T) {
	root := t.TempDir()
	r := sample(root)
	doc := roundTrip(t, r, sarif.Options{RepoRoot: root, Verdicts: []results.Verdict{results.True, results.False, results.Unknown, results.NotChecked}})
	checkSchema(t, doc)
	results := doc["runs"].([]any)[0].(map[string]any)["results"].([]any)
	levels := map[string]string{}
	for _, x := range results {
		res := x.(map[string]any)
		levels[res["ruleId"].(string)] = res["level"].(string)
	}
	want := map[string]string{sarif.RuleViolated: "error", sarif.RuleUnknown: "warning", sarif.RuleProved: "none", sarif.RuleNotChecked: "note"}
	for k, v := range want {
		if levels[k] != v {
			t.Errorf("%s: level %q, want %q", k, levels[k], v)
		}
	}
}

func TestEmptyReport(t *testing.T) {
	doc := roundTrip(t, &results.Report{Engine: "0.1.0"}, sarif.Options{})
	checkSchema(t, doc)
	// "results": [] rather than null: an empty run still closes old alerts.
	if r, ok := doc["runs"].([]any)[0].(map[string]any)["results"].([]any); !ok || len(r) != 0 {
		t.Errorf("results = %v, want []", doc["runs"].([]any)[0].(map[string]any)["results"])
	}
}

func TestFingerprintStable(t *testing.T) {
	a := sample("/x")
	b := sample("/y")
	b.Properties[0].Line = 40 // an edit above the assertion moves it
	b.Properties[0].File = "/y/src/renamed.c"
	fa := sarif.New(a, sarif.Options{RepoRoot: "/x"}).Runs[0].Results[1].PartialFingerprints[sarif.FingerprintKey]
	fb := sarif.New(b, sarif.Options{RepoRoot: "/y"}).Runs[0].Results[1].PartialFingerprints[sarif.FingerprintKey]
	if fa != fb || fa != sarif.Fingerprint("main", "main:x>0") {
		t.Errorf("fingerprints %s, %s differ after a move", fa, fb)
	}
	if sarif.Fingerprint("main", "a") == sarif.Fingerprint("other", "a") {
		t.Errorf("fingerprint ignores the entry function")
	}
	var x, y bytes.Buffer
	sarif.Write(&x, a, sarif.Options{RepoRoot: "/x"})
	sarif.Write(&y, sample("/x"), sarif.Options{RepoRoot: "/x"})
	if x.String() != y.String() {
		t.Errorf("equal reports give different logs")
	}
}

func TestRelativeURI(t *testing.T) {
	for _, c := range []struct{ file, root, want string }{
		{"/repo/src/a.c", "/repo", "src/a.c"},
		{"/repo/src/../b.c", "/repo/", "b.c"},
		{"/other/a.c", "/repo", "file:///other/a.c"},
		{"/repo/x#y%.c", "/repo", "x%23y%25.c"},
		{"a:b.c", "", "./a:b.c"},
		{"", "/repo", ""},
	} {
		if got := sarif.RelativeURI(c.file, c.root); got != c.want {
			t.Errorf("RelativeURI(%q, %q) = %q, want %q", c.file, c.root, got, c.want)
		}
	}
}

// TestMessageTextMemory: a per-site memory-safety property reads as
// memory safety at its access, not as an assertion.
func TestMessageTextMemory(t *testing.T) {
	for _, tt := range []struct {
		p    results.PropertyReport
		want string
	}{
		{results.PropertyReport{ID: "main:valid-deref@b.c:9:2", Expression: "G valid-deref", Function: "main", Line: 9, Verdict: results.True},
			"Memory safety (valid-deref) at this access holds in main."},
		{results.PropertyReport{ID: "main:valid-deref@b.c:9:2", Expression: "G valid-deref", Function: "main", Line: 9, Verdict: results.False, Violated: "valid-deref", Reason: "valid-deref: out-of-bounds"},
			"Memory safety (valid-deref) is violated in main. Reason: valid-deref: out-of-bounds."},
		{results.PropertyReport{ID: "valid-memtrack", Expression: "G valid-memtrack", Function: "main", Verdict: results.Unknown, Reason: "timeout"},
			"Memory safety (valid-memtrack) could not be decided in main. Reason: timeout."},
		{results.PropertyReport{ID: "main:x>0", Expression: "x > 0", Function: "main", Line: 3, Verdict: results.True},
			"Assertion x > 0 holds in main."},
	} {
		if got := sarif.MessageText(&tt.p); got != tt.want {
			t.Errorf("MessageText(%s) = %q, want %q", tt.p.ID, got, tt.want)
		}
	}
}

// TestMemoryRule: a memory-safety violation gets the rule of its
// property kind, not assertion-violated, and a message that says what
// happened to which block (no heap block names).
func TestMemoryRule(t *testing.T) {
	data, err := os.ReadFile("../../results/testdata/use_after_free.json")
	if err != nil {
		t.Fatal(err)
	}
	var p results.PropertyReport
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	leak := results.PropertyReport{ID: "valid-memtrack", Expression: "G valid-memtrack", Verdict: results.False, Violated: "valid-memtrack",
		Reason: "valid-memtrack: heap3#0 is allocated but no longer reachable at f.c:20:1; confirmed by SMT and concrete replay", File: "f.c", Line: 20,
		Memory: &results.MemoryViolation{Problem: results.Leak, Object: "heap3#0"}}
	r := &results.Report{Engine: "0.1.0", Entry: "main", Properties: []results.PropertyReport{p, leak}}
	doc := roundTrip(t, r, sarif.Options{})
	checkSchema(t, doc)
	run := doc["runs"].([]any)[0].(map[string]any)
	var ids []string
	for _, x := range run["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any) {
		rule := x.(map[string]any)
		ids = append(ids, rule["id"].(string))
		if rule["shortDescription"] == nil || rule["fullDescription"] == nil {
			t.Errorf("rule %s lacks a description", rule["id"])
		}
	}
	if got := strings.Join(ids, " "); got != "assertion-violated assertion-unknown assertion-not-checked assertion-proved invalid-dereference invalid-free memory-leak memory-not-freed" {
		t.Errorf("rules %s", got)
	}
	res := run["results"].([]any)
	var got []string
	for _, x := range res {
		m := x.(map[string]any)
		got = append(got, fmt.Sprint(m["ruleId"], " ", m["ruleIndex"], " ", m["level"], ": ", m["message"].(map[string]any)["text"]))
	}
	want := []string{
		"invalid-dereference 4 error: Use after free of p (valid-deref): p can be dereferenced after free (the block allocated at f.c:4 by malloc, freed at f.c:12) in main. " +
			"Reason: valid-deref: access to the block allocated at f.c:4 by malloc after it was freed (*p) at f.c:18:3; confirmed by SMT and concrete replay.",
		"memory-leak 6 error: Memory leak (valid-memtrack): a heap block can become unreachable without being freed (a memory leak). " +
			"Reason: valid-memtrack: a heap block is allocated but no longer reachable at f.c:20:1; confirmed by SMT and concrete replay.",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("results:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	flow := res[0].(map[string]any)["codeFlows"].([]any)[0].(map[string]any)
	if msg := flow["message"].(map[string]any)["text"]; msg != "Counterexample: 14 steps to the violation (12 shown, the rest folded)" {
		t.Errorf("code flow %v", msg)
	}
	var steps []string
	for _, x := range flow["threadFlows"].([]any)[0].(map[string]any)["locations"].([]any) {
		steps = append(steps, x.(map[string]any)["location"].(map[string]any)["message"].(map[string]any)["text"].(string))
	}
	if !strings.Contains(strings.Join(steps, "; "), "free(p)") {
		t.Errorf("the free step is not in the code flow: %v", steps)
	}
	if id, level, ok := sarif.RuleOf(&p); id != sarif.RuleInvalidDeref || level != "error" || !ok {
		t.Errorf("RuleOf = %s %s %v", id, level, ok)
	}
}
