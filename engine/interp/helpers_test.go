package interp_test

import (
	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/cfa/cfatest"
)

// The tests build CFAs and paths with engine/cfa/cfatest, under short
// names.
type pb = cfatest.Path

func newProgram(m cfa.DataModel) *cfa.Program { return cfa.NewProgram(m) }

var (
	function = cfatest.Function
	c        = cfatest.Const
	ref      = cfatest.Ref
	bin      = cfatest.Bin
	cast     = cfatest.Cast
	assign   = cfatest.Assign
	havoc    = cfatest.Havoc
	addr     = cfatest.AddrOf
	deref    = cfatest.Deref
	index    = cfatest.Index
	member   = cfatest.Member
)

var (
	intT   = cfa.IntT
	uintT  = cfa.UIntType
	ucharT = cfa.UCharType
)
