package cfa

// MallocFailureSource is the Havoc source of the front end's choice
// whether malloc or calloc fails (frontend.MallocMayFail).
const MallocFailureSource = "malloc-may-fail"

// IsMallocFailure reports whether e is the assignment of NULL that the
// front end emits on the failing branch of malloc or calloc (the Havoc
// with Source MallocFailureSource, an Assume, then `res = 0`): the block
// the call allocated is then never seen by the program, so memory-safety
// checks treat it as never allocated, not as leaked.
func IsMallocFailure(e *Edge) bool {
	a, ok := e.Op.(*Assign)
	if !ok || len(e.From.In) != 1 {
		return false
	}
	if c, ok := a.RHS.(*Const); !ok || c.V != 0 {
		return false
	}
	as := e.From.In[0]
	if _, ok := as.Op.(*Assume); !ok || len(as.From.In) != 1 {
		return false
	}
	h, ok := as.From.In[0].Op.(*Havoc)
	return ok && h.Source == MallocFailureSource
}
