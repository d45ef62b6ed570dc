package llvmir

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/value"
)

// findFolds decides which instruction results are folded into their
// use (Options.Unfolded): a result with exactly one use, by a later
// instruction or the terminator of the same block (not a phi), computed
// by a side-effect-free instruction (arithmetic, comparison, cast,
// getelementptr, extractvalue) or by a load that is neither volatile nor
// atomic and that no write may separate from where its value is finally
// read: between the load and the instruction that consumes the whole
// folded expression there is no store, call or other instruction that
// writes memory or variables. Evaluation then happens at the use, in the
// same order of side effects as in the IR.
func (fx *fnctx) findFolds() {
	uses := map[value.Value]int{}
	user := map[value.Value]any{}
	note := func(u any, ops []*value.Value) {
		for _, op := range ops {
			v := *op
			if a, ok := v.(*ir.Arg); ok {
				v = a.Value
			}
			uses[v]++
			user[v] = u
		}
	}
	for _, b := range fx.irf.Blocks {
		for _, in := range b.Insts {
			if c, ok := in.(*ir.InstCall); ok && isDbg(c) {
				continue
			}
			note(in, in.Operands())
		}
		note(b.Term, b.Term.Operands())
	}
	for _, b := range fx.irf.Blocks {
		pos := map[any]int{}
		for i, in := range b.Insts {
			pos[in] = i
		}
		pos[b.Term] = len(b.Insts)
		candidate := func(in ir.Instruction) bool {
			v, ok := in.(value.Value)
			if !ok || uses[v] != 1 {
				return false
			}
			u := user[v]
			if _, phi := u.(*ir.InstPhi); phi {
				return false
			}
			j, same := pos[u]
			return same && j > pos[in]
		}
		for _, in := range b.Insts {
			switch in.(type) {
			case *ir.InstAdd, *ir.InstSub, *ir.InstMul, *ir.InstUDiv, *ir.InstSDiv, *ir.InstURem, *ir.InstSRem,
				*ir.InstShl, *ir.InstLShr, *ir.InstAShr, *ir.InstAnd, *ir.InstOr, *ir.InstXor,
				*ir.InstICmp, *ir.InstTrunc, *ir.InstZExt, *ir.InstSExt, *ir.InstPtrToInt, *ir.InstIntToPtr,
				*ir.InstBitCast, *ir.InstGetElementPtr, *ir.InstExtractValue, *ir.InstFreeze:
				if candidate(in) {
					fx.folds[in.(value.Value)] = true
				}
			}
		}
		for i, in := range b.Insts {
			// a call whose one use is the store right after it (debug
			// intrinsics aside)
			if c, ok := in.(*ir.InstCall); ok && !isDbg(c) && uses[c] == 1 {
				j := i + 1
				for j < len(b.Insts) {
					if d, ok := b.Insts[j].(*ir.InstCall); ok && isDbg(d) {
						j++
						continue
					}
					break
				}
				if j < len(b.Insts) {
					if st, ok := b.Insts[j].(*ir.InstStore); ok && st.Src == value.Value(c) && !st.Volatile && !st.Atomic {
						// the call's result is written when it returns,
						// as the store would write it
						fx.storeOf[c] = st
					}
				}
			}
		}
		for i, in := range b.Insts {
			ld, ok := in.(*ir.InstLoad)
			if !ok || ld.Volatile || ld.Atomic || !candidate(in) {
				continue
			}
			// the instruction that reads the folded expression
			var v value.Value = ld
			end := user[v]
			for {
				ev, ok := end.(value.Value)
				if !ok || !fx.folds[ev] {
					break
				}
				end = user[ev]
			}
			j := pos[end]
			clean := true
			for _, mid := range b.Insts[i+1 : j] {
				if writes(mid) {
					clean = false
					break
				}
			}
			if clean {
				fx.folds[ld] = true
			}
		}
	}
}

// writes reports whether an instruction may write memory or a variable
// that a load reads: stores, calls other than debug intrinsics, and
// every other instruction with an effect.
func writes(in ir.Instruction) bool {
	switch in := in.(type) {
	case *ir.InstStore, *ir.InstAtomicRMW, *ir.InstCmpXchg, *ir.InstFence, *ir.InstVAArg, *ir.InstAlloca:
		return true
	case *ir.InstCall:
		return !isDbg(in)
	case *ir.InstLoad:
		return in.Volatile || in.Atomic
	}
	return false
}
