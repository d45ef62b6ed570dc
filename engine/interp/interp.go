package interp

import (
	"context"
	"errors"
	"fmt"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/csem"
)

// Options bound a run.
type Options struct {
	// MaxSteps bounds the number of steps (0: DefaultMaxSteps).
	MaxSteps int
}

// DefaultMaxSteps is the step bound when Options.MaxSteps is 0.
const DefaultMaxSteps = 1_000_000

// maxAlloc bounds a single allocation (bytes) the interpreter performs.
const maxAlloc = 1 << 26

// Stop says why a run ended.
type Stop uint8

// Reasons a run stops.
const (
	// ReachedError: a call of an error function (reach_error,
	// __VERIFIER_error, __assert_fail) was taken (it is the last step).
	ReachedError Stop = iota
	// ReachedTerminal: a Terminal location (after abort, exit, a failed
	// __VERIFIER_assume) or a location without out-edges.
	ReachedTerminal
	// ReachedExit: the entry function returned.
	ReachedExit
	// StepBound: Options.MaxSteps steps were taken.
	StepBound
	// UndefinedBehaviour: the next step has undefined behaviour the
	// interpreter refuses to execute (Reason says which); it is not taken.
	UndefinedBehaviour
	// Unsupported: the next step uses a construct the interpreter cannot
	// execute (floating point, unknown external functions with pointer
	// arguments, reads of uninitialised memory, …); it is not taken.
	Unsupported
)

var stopNames = [...]string{"reached error", "reached terminal", "reached exit", "step bound", "undefined behaviour", "unsupported"}

func (s Stop) String() string { return stopNames[s] }

// Trace is the record of a run.
type Trace struct {
	// Steps are the steps taken, in the path convention of cfa.Step.
	Steps []cfa.Step
	Stop  Stop
	// Reason details Stop: the error function called, the kind of
	// undefined behaviour, the unsupported construct.
	Reason string
	// Pos is the position of the last step taken or refused.
	Pos cfa.Pos
	// InputsUsed is the number of input values consumed; MissingInputs
	// counts inputs read beyond the given ones (read as 0).
	InputsUsed, MissingInputs int
	// Exit is the entry function's return value when Stop is
	// ReachedExit and it returns a scalar.
	Exit uint64
}

// Run executes p concretely: Init (when it has edges), then the function
// entry, with inputs supplying, in order, every nondeterministic value
// exactly as smt.EncodePath lists its Inputs: Havoc steps and
// __VERIFIER_nondet_* calls, results of external functions, declarations
// of scalar locals (Decl: the indeterminate initial value), scalar
// parameters of the entry function, and reads of volatile variables.
// Values are truncated to the receiving type; missing inputs read as 0.
// The error is non-nil only for a bad entry or a cancelled context.
func Run(ctx context.Context, p *cfa.Program, entry string, inputs []uint64, opts Options) (*Trace, error) {
	fn := p.Func(entry)
	if fn == nil {
		return nil, fmt.Errorf("interp: no function %q with a body", entry)
	}
	m := newMachine(p, inputs)
	max := opts.MaxSteps
	if max <= 0 {
		max = DefaultMaxSteps
	}
	tr := &Trace{}
	m.trace = tr
	var loc *cfa.Location
	if len(p.Init.Entry.Out) > 0 {
		m.pushFrame(p.Init, nil)
		loc = p.Init.Entry
	} else {
		if st := m.try(func() { m.enterEntry(fn) }); st != nil {
			m.finish(st)
			return tr, nil
		}
		loc = fn.Entry
	}
	for {
		if len(tr.Steps)&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return tr, fmt.Errorf("interp: %w", err)
			}
		}
		if len(tr.Steps) >= max {
			tr.Stop = StepBound
			break
		}
		var step cfa.Step
		if loc == p.Init.Exit && m.top().fn == p.Init {
			step = cfa.Step{Kind: cfa.Enter, Callee: fn}
		} else if loc == m.top().fn.Exit {
			if len(m.frames) == 1 {
				tr.Stop = ReachedExit
				if rv := fn.RetVar; rv != nil && rv.T.IsScalar() {
					if st := m.try(func() { tr.Exit = m.rval(&cfa.VarRef{Var: rv}) }); st != nil {
						m.finish(st)
						return tr, nil
					}
				}
				break
			}
			fr := m.top()
			step = cfa.Step{Edge: fr.call, Kind: cfa.Leave, Callee: fr.fn}
		} else if loc.Terminal || len(loc.Out) == 0 {
			tr.Stop = ReachedTerminal
			break
		} else {
			var st *stop
			st = m.try(func() { step = m.choose(loc) })
			if st != nil {
				m.finish(st)
				return tr, nil
			}
		}
		if step.Edge != nil {
			tr.Pos = step.Edge.Pos.Start
		}
		if st := m.try(func() { m.exec(step) }); st != nil {
			m.finish(st)
			return tr, nil
		}
		tr.Steps = append(tr.Steps, step)
		if m.errorCall {
			tr.Stop = ReachedError
			break
		}
		if m.assumeFailed {
			tr.Stop = ReachedTerminal
			tr.Reason = "__VERIFIER_assume failed"
			break
		}
		loc = step.Next()
	}
	tr.InputsUsed, tr.MissingInputs = m.used, m.missing
	return tr, nil
}

// Replay executes p along path with the given inputs and reports whether
// the concrete execution follows exactly that path: every Assume step's
// condition holds, every step is the one the execution takes, and exactly
// all inputs are consumed. When it does not, err says why (the step index,
// a failed assumption, undefined behaviour, an unsupported construct, a
// wrong number of inputs). This is the final check of every FALSE verdict.
func Replay(ctx context.Context, p *cfa.Program, path []cfa.Step, inputs []uint64) (reachedEnd bool, err error) {
	_, err = replay(ctx, newMachine(p, inputs), path)
	return err == nil, err
}

// ReplayHeap is Replay where the blocks that malloc and alloca allocate
// start with the bytes heap gives them, by the block's ordinal among the
// path's allocations (malloc, calloc, alloca and __builtin_alloca,
// counted from 1; smt.PathResult.HeapInit): C leaves them indeterminate,
// SV-COMP reads them as nondeterministic values, and the SMT model has
// chosen these. Bytes beyond those given stay uninitialised (a read
// stops the replay as in Replay); calloc's blocks are zero.
func ReplayHeap(ctx context.Context, p *cfa.Program, path []cfa.Step, inputs []uint64, heap map[int][]byte) (reachedEnd bool, err error) {
	return ReplayHeapSem(ctx, p, path, inputs, heap, Semantics{})
}

// Semantics selects variants of the C semantics of a replay, the twins
// of smt.EncodeOptions's.
type Semantics struct {
	// WrapPointerArith makes pointer arithmetic that leaves the object
	// no undefined behaviour while the offset, a signed OffsetBits-bit
	// number, fits (as the encoder's with
	// smt.EncodeOptions.WrapPointerArith): the pointer keeps its object,
	// an access through it is out of bounds unless the arithmetic comes
	// back, and comparing or subtracting a pointer before its object
	// stops on undefined behaviour.
	WrapPointerArith bool
	// ZeroPagePointers makes the conversion of an integer v to a pointer
	// the address v in no object when v is below 4096 (smt.ZeroPage),
	// undefined behaviour otherwise (smt.EncodeOptions.ZeroPagePointers).
	ZeroPagePointers bool
}

// ReplayHeapSem is ReplayHeap under a variant of the C semantics (sem).
func ReplayHeapSem(ctx context.Context, p *cfa.Program, path []cfa.Step, inputs []uint64, heap map[int][]byte, sem Semantics) (reachedEnd bool, err error) {
	m := newMachine(p, inputs)
	m.heapInit = heap
	m.wrapPtr = sem.WrapPointerArith
	m.zeroPage = sem.ZeroPagePointers
	_, err = replay(ctx, m, path)
	return err == nil, err
}

// UnobservedInputs replays path with inputs exactly as Replay and returns
// the indexes (into inputs) of the inputs whose value the execution never
// observes: Decl inputs of scalar locals kept in memory (address taken)
// whose bytes are all overwritten, or never read, before any read of
// them (a load, or a block copy, of a byte still holding the value). Any
// value of such an input gives the same execution, so a reproducer need
// not supply it. Every other input counts as observed. The error is
// Replay's.
func UnobservedInputs(ctx context.Context, p *cfa.Program, path []cfa.Step, inputs []uint64) (map[int]bool, error) {
	m := newMachine(p, inputs)
	m.observed, m.declIn = map[int]bool{}, map[int]bool{}
	if _, err := replay(ctx, m, path); err != nil {
		return nil, err
	}
	un := map[int]bool{}
	for i := range m.declIn {
		if !m.observed[i] {
			un[i] = true
		}
	}
	return un, nil
}

func replay(ctx context.Context, m *machine, path []cfa.Step) (*machine, error) {
	inputs := m.inputs
	m.trace = &Trace{}
	for i, s := range path {
		if i&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return m, fmt.Errorf("interp: replay interrupted at step %d: %w", i, err)
			}
		}
		if st := m.try(func() { m.replayStep(s) }); st != nil {
			pos := ""
			if s.Edge != nil {
				pos = " at " + s.Edge.Pos.Start.String()
			}
			if st.diverges {
				return m, fmt.Errorf("interp: replay stops at step %d%s: %w: %s", i, pos, ErrDiverges, st.msg)
			}
			return m, fmt.Errorf("interp: replay stops at step %d%s: %s: %s", i, pos, st.kind, st.msg)
		}
		if m.assumeFailed {
			return m, fmt.Errorf("interp: replay stops at step %d: %w: __VERIFIER_assume failed", i, ErrDiverges)
		}
	}
	if m.missing > 0 {
		return m, fmt.Errorf("interp: the path needs %d inputs, %d given", m.used, len(inputs))
	}
	if m.used != len(inputs) {
		return m, fmt.Errorf("interp: the path consumes %d inputs, %d given", m.used, len(inputs))
	}
	return m, nil
}

// ErrDiverges is wrapped by Replay errors when the execution leaves the
// path (an Assume does not hold or a step is not the one executed).
var ErrDiverges = errors.New("execution leaves the path")

func (m *machine) replayStep(s cfa.Step) {
	switch s.Kind {
	case cfa.Enter:
		if s.Edge == nil {
			if len(m.frames) > 0 && (m.top().fn != m.p.Init || m.loc != m.p.Init.Exit) {
				m.stopf(Unsupported, "entry step before Init's exit")
			}
		} else if m.started() && m.loc != s.Edge.From {
			m.diverge("step leaves %s, execution is at %s of %s", s.Edge.From, m.loc, m.loc.Func.Name)
		}
	case cfa.Leave:
		if m.loc != nil && m.loc != m.top().fn.Exit {
			m.diverge("leave step before the callee's exit")
		}
	default:
		if s.Edge == nil {
			m.stopf(Unsupported, "intraprocedural step without an edge")
		}
		if m.started() && m.loc != s.Edge.From {
			m.diverge("step leaves %s of %s, execution is at %s of %s", s.Edge.From, s.Edge.From.Func.Name, m.loc, m.loc.Func.Name)
		}
		if a, ok := s.Edge.Op.(*cfa.Assume); ok {
			m.ensureStarted(s.Edge.From.Func)
			if csem.Truth(m.cond(a.Cond)) != a.Truth {
				m.diverge("assumption %s does not hold", s.Edge.Op)
			}
			m.loc = s.Next()
			return
		}
	}
	m.exec(s)
	m.loc = s.Next()
}

func (m *machine) diverge(format string, args ...any) {
	panic(&stop{msg: fmt.Sprintf(format, args...), diverges: true})
}
