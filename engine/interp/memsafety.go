package interp

import (
	"context"
	"fmt"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
)

// ReplayMemory confirms a memory-safety violation concretely: it replays
// every step of path but the last exactly as Replay does (all inputs
// must be consumed there), then takes the last step and requires the
// violation of prop to happen at it:
//
//   - "valid-deref": the step stops on an invalid memory access (null,
//     out of bounds, dangling or freed, a function), or on pointer
//     arithmetic that leaves the object (the step's access is then out
//     of bounds);
//   - "valid-free": the step stops on an invalid or double free;
//   - "valid-memtrack": after the step, some live malloc/calloc block is
//     reachable from no global, no live frame and no reachable block
//     (every byte window of pointer size counts as a possible pointer,
//     so reachability is over-approximated; at the exit of entry, the
//     entry's own frame is dead);
//   - "valid-memcleanup": after the step, which reaches the exit of
//     entry or calls a function that ends the program (cfa.EndsProgram:
//     exit, abort, a failed assert), some malloc/calloc block is still
//     live.
//
// Pointer arithmetic that leaves its object is as with
// Semantics.WrapPointerArith, integers convert to pointers as with
// Semantics.ZeroPagePointers (SV-COMP's valid-deref counts the access
// through such a pointer, not the arithmetic), so an access through it
// at the last step is out of bounds.
//
// Blocks whose malloc failed on the front end's failing branch
// (cfa.IsMallocFailure) are never seen by the program and count as not
// allocated. Inputs the last step reads beyond the given ones read as
// 0 (any value is a real execution). It returns the interpreter's
// description of the violation, or an error saying why it is not
// confirmed.
func ReplayMemory(ctx context.Context, p *cfa.Program, entry string, path []cfa.Step, inputs []uint64, prop string) (string, error) {
	return ReplayMemoryHeap(ctx, p, entry, path, inputs, nil, prop)
}

// ReplayMemoryHeap is ReplayMemory with the initial bytes of the blocks
// allocated along the path (by allocation ordinal, as ReplayHeap takes
// them: smt.PathResult.HeapInit), which C leaves indeterminate and
// SV-COMP reads as nondeterministic values: a pointer read from a block
// before any write holds the model's value.
func ReplayMemoryHeap(ctx context.Context, p *cfa.Program, entry string, path []cfa.Step, inputs []uint64, heap map[int][]byte, prop string) (string, error) {
	if len(path) == 0 {
		return "", fmt.Errorf("interp: empty path")
	}
	m := newMachine(p, inputs)
	m.heapInit = heap
	m.wrapPtr, m.zeroPage = true, true
	failed := map[int]bool{}
	mark := func(s cfa.Step) *stop {
		if s.Kind != cfa.Intra || s.Edge == nil || !cfa.IsMallocFailure(s.Edge) || !m.started() {
			return nil
		}
		return m.try(func() {
			v := m.rval(s.Edge.Op.(*cfa.Assign).LHS)
			if id, _ := m.split(v); id != 0 && id < uint64(len(m.objs)) {
				failed[int(id)] = true
			}
		})
	}
	prefix := path[:len(path)-1]
	m.trace = &Trace{}
	for i, s := range prefix {
		if i&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return "", fmt.Errorf("interp: replay interrupted: %w", err)
			}
		}
		if st := mark(s); st != nil {
			return "", fmt.Errorf("interp: replay stops at step %d: %s", i, st.msg)
		}
		if st := m.try(func() { m.replayStep(s) }); st != nil {
			return "", fmt.Errorf("interp: replay stops at step %d: %s", i, st.msg)
		}
		if m.assumeFailed {
			return "", fmt.Errorf("interp: replay stops at step %d: __VERIFIER_assume failed", i)
		}
	}
	if m.used != len(inputs) || m.missing > 0 {
		return "", fmt.Errorf("interp: the path before the violation consumes %d inputs, %d given", m.used, len(inputs))
	}
	last := path[len(path)-1]
	if st := mark(last); st != nil {
		return "", fmt.Errorf("interp: the last step stops: %s", st.msg)
	}
	st := m.try(func() { m.replayStep(last) })
	switch prop {
	case "valid-deref", "valid-free":
		if st == nil {
			return "", fmt.Errorf("interp: the last step executes without a memory error")
		}
		if st.diverges {
			return "", fmt.Errorf("interp: the last step leaves the path: %s", st.msg)
		}
		kind := ""
		switch {
		case strings.HasPrefix(st.msg, "invalid memory access"),
			// the address of the access leaves its object in this very
			// step (C's undefined pointer arithmetic, the access's
			// invalidity for SV-COMP)
			st.msg == "pointer arithmetic out of object bounds":
			kind = "valid-deref"
		case strings.HasPrefix(st.msg, "invalid free"):
			kind = "valid-free"
		}
		if kind != prop {
			return "", fmt.Errorf("interp: the last step stops on %s: %s, not a %s violation", st.kind, st.msg, prop)
		}
		return st.msg, nil
	case "valid-memtrack", "valid-memcleanup":
		if st != nil {
			return "", fmt.Errorf("interp: the last step stops: %s", st.msg)
		}
		if m.assumeFailed {
			return "", fmt.Errorf("interp: __VERIFIER_assume fails at the last step")
		}
		atExit := len(m.frames) == 1 && m.top().fn.Name == entry && m.loc == m.top().fn.Exit
		if prop == "valid-memcleanup" {
			var c *cfa.Call
			isCall := false
			if last.Edge != nil && last.Kind == cfa.Intra {
				c, isCall = last.Edge.Op.(*cfa.Call)
			}
			if !atExit && !(isCall && cfa.EndsProgram(c.Fn) && last.Next() != nil && last.Next().Terminal) {
				return "", fmt.Errorf("interp: the last step does not end the program")
			}
			for _, o := range m.objs {
				if o.heap && o.live && !failed[o.id] {
					return fmt.Sprintf("%s (%d bytes) is still allocated at the end of the program", o.name, len(o.data)), nil
				}
			}
			return "", fmt.Errorf("interp: no block is allocated at the end of the program")
		}
		reached := m.reachableBlocks(atExit)
		for _, o := range m.objs {
			if o.heap && o.live && !failed[o.id] && !reached[o.id] {
				return fmt.Sprintf("%s (%d bytes) is allocated but no longer reachable", o.name, len(o.data)), nil
			}
		}
		return "", fmt.Errorf("interp: every allocated block is still reachable")
	}
	return "", fmt.Errorf("interp: unknown memory property %q", prop)
}

// reachableBlocks returns the ids of the heap blocks reachable from the
// registers and memory of globals and live frames (without the top frame
// when deadTop), every pointer-sized byte window read as a pointer when
// its offset lies in the block or just past it.
func (m *machine) reachableBlocks(deadTop bool) map[int]bool {
	reached := map[int]bool{}
	var work []*object
	see := func(v uint64) {
		id, off := m.split(v)
		if id == 0 || id >= uint64(len(m.objs)) || off > uint64(len(m.objs[id].data)) {
			return // not a pointer into or just past a block
		}
		o := m.objs[id]
		if o.heap && o.live && !reached[o.id] {
			reached[o.id] = true
			work = append(work, o)
		}
	}
	scan := func(o *object) {
		w := m.ptrBits / 8
		for i := 0; i+w <= len(o.data); i++ {
			var v uint64
			for k := w - 1; k >= 0; k-- {
				v = v<<8 | uint64(o.data[i+k])
			}
			see(v)
		}
	}
	for _, v := range m.greg {
		see(v)
	}
	for _, o := range m.gobj {
		scan(o)
	}
	frames := m.frames
	if deadTop && len(frames) > 0 {
		frames = frames[:len(frames)-1]
	}
	for _, fr := range frames {
		for _, v := range fr.reg {
			see(v)
		}
		for _, o := range fr.obj {
			scan(o)
		}
		for _, o := range fr.allocas {
			scan(o)
		}
	}
	for len(work) > 0 {
		o := work[len(work)-1]
		work = work[:len(work)-1]
		scan(o)
	}
	return reached
}
