package engine_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine"
	"github.com/reverify/reverify/engine/frontend"
	"github.com/reverify/reverify/engine/smt/z3"
	"github.com/reverify/reverify/engine/spec"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/engine/witness/validate"
	"github.com/reverify/reverify/results"
)

// unsupportedWitness lists the parts of the validator's reasons for
// witnesses it cannot check (constructs outside its segments, budgets),
// as opposed to witnesses it refutes (an invariant that does not hold,
// is not inductive, or does not imply the property).
var unsupportedWitness = []string{
	"is not supported", "carries no invariant", "does not model", "gives up",
	"cannot be encoded", "recursi", "validation cancelled", "unknown caller", "could not decide",
	"calling contexts", "the encoding leaves out",
}

// TestVerdictWitnesses writes, as `reverify check --output` does
// (invariant selection, then the YAML witness), the correctness witness
// of every TRUE verdict of the programs of testdata/verdicts under their
// first configuration, and validates it: a witness the validator
// refutes fails the test; one it cannot check (unsupportedWitness) is
// logged. Programs with memory-safety, entry, malloc, reduction or
// overflow directives are left out (their witnesses are not written, or
// are for another program). The fast tier (-short) takes every sixth
// program of the sorted list.
func TestVerdictWitnesses(t *testing.T) {
	n := 0
	// the fast tier's budgets: a property or witness that needs more is
	// left unchecked (logged), as one the validator cannot check
	verifyTO, validateTO := 20*time.Second, time.Minute
	if testing.Short() {
		verifyTO, validateTO = 5*time.Second, 10*time.Second
	}
	for _, vf := range verdictFiles(t) {
		skip := false
		for _, re := range []interface{ MatchString(string) bool }{memoryRE, sitesRE, entryRE, mallocRE, reduceRE, overflowRE, assumePureRE} {
			skip = skip || re.MatchString(vf.src)
		}
		if skip {
			continue
		}
		n++
		if testing.Short() && n%6 != 1 {
			continue
		}
		config := vf.configs[0]
		t.Run(config+"/"+filepath.Base(vf.file), func(t *testing.T) {
			t.Parallel()
			prog, err := frontend.Translate(frontend.Options{}, vf.file)
			if err != nil {
				t.Fatal(err)
			}
			props := spec.Properties(prog, "main")
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			res, err := engine.Verify(ctx, prog, props, engine.Config{MemoryLimit: testMemory, Name: config, Solver: z3.Factory, MaxStates: 20000, Timeout: verifyTO, KeepARG: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res {
				if r.Verdict != results.True {
					continue
				}
				c := &witness.Correctness{Program: prog, Invariants: r.Invariants, K: r.InductionDepth, Property: r.Property.ID,
					Task: witness.Task{Files: []string{vf.file}, DataModel: prog.DataModel, Producer: "reverify", Configuration: config}}
				opts := validate.Options{Solver: z3.Factory, Properties: props}
				sctx, scancel := context.WithTimeout(ctx, 10*time.Second)
				_, _ = validate.Select(sctx, c, opts)
				scancel()
				var y bytes.Buffer
				if err := witness.WriteCorrectnessYAML(&y, c); err != nil {
					t.Fatalf("%s: %v", r.Property.ID, err)
				}
				w, err := engine.ReadWitness(bytes.NewReader(y.Bytes()))
				if err != nil {
					t.Fatalf("%s: %v\n%s", r.Property.ID, err, y.String())
				}
				vctx, vcancel := context.WithTimeout(ctx, validateTO)
				v, err := engine.ValidateWitness(vctx, prog, w, "main", z3.Factory, engine.SourceOptions{})
				vcancel()
				switch {
				case err != nil:
					t.Errorf("%s: %v\n%s", r.Property.ID, err, y.String())
				case v.Confirmed:
					t.Logf("%s: confirmed: %s", r.Property.ID, v.Reason)
				case unsupported(v.Reason):
					t.Logf("%s: not checkable: %s", r.Property.ID, v.Reason)
				default:
					t.Errorf("%s: own witness refuted: %s\n%s", r.Property.ID, v.Reason, y.String())
				}
			}
		})
	}
}

func unsupported(reason string) bool {
	for _, s := range unsupportedWitness {
		if strings.Contains(reason, s) {
			return true
		}
	}
	return false
}
