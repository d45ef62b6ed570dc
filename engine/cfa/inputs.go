package cfa

import "strings"

// LibraryObjects are objects the C library defines (C11 7.21.1, POSIX
// unistd.h and time.h, glibc): declared extern by the headers, never
// inputs of the program.
var LibraryObjects = map[string]bool{
	"stdin": true, "stdout": true, "stderr": true, "environ": true, "__environ": true,
	"optarg": true, "optind": true, "opterr": true, "optopt": true,
	"timezone": true, "daylight": true, "tzname": true, "signgam": true,
	"sys_errlist": true, "sys_nerr": true, "program_invocation_name": true, "program_invocation_short_name": true,
	"_IO_2_1_stdin_": true, "_IO_2_1_stdout_": true, "_IO_2_1_stderr_": true,
}

// MaxInputScalars bounds the scalars havocExtern gives inputs to in one
// extern object.
const MaxInputScalars = 256

// HavocInputs emits, through emit, a Havoc of source for every scalar
// of the lvalue x of type t (the fields of structs, the elements of
// arrays of known length): the contents of an object that comes from
// outside the program (an extern object no source defines, a weak one a
// link may replace), inputs as entry parameters are. It reports false
// for what it cannot enumerate (unions, arrays of unknown length, more
// than MaxInputScalars scalars), whose contents are then an unsupported
// construct; what it emitted before then is moot. Both front ends
// (engine/frontend, engine/llvmir) use it, so extern objects mean one
// thing whichever reads the program.
func HavocInputs(x Expr, t *Type, source string, emit func(Op)) bool {
	return havocObject(x, t, source, emit, new(int))
}

// HavocExtern emits, through emit, what gives the extern object x of
// type t its contents from outside the program: an input per scalar
// (HavocInputs) where it can name them, else, for an object of known
// size that holds no pointer and no flexible array member (a lookup
// table of thousands of bytes), a
// call of HavocObject on addr, x's address as a void pointer: every byte
// an input, as the analyses model that call (at pos). It reports false for
// neither (the contents are then an unsupported construct, and nothing
// was emitted), and whole when it called HavocObject.
func HavocExtern(x Expr, t *Type, addr Expr, pos Pos, source string, emit func(Op)) (ok, whole bool) {
	var ops []Op
	if HavocInputs(x, t, source, func(op Op) { ops = append(ops, op) }) {
		for _, op := range ops {
			emit(op)
		}
		return true, false
	}
	if t.Size <= 0 || !plainBytes(t) {
		return false, false
	}
	emit(&Call{Fn: HavocObject, Args: []Expr{addr}, Pos: pos})
	return true, true
}

// plainBytes reports whether an object of type t is all its bytes: it
// holds no pointer (where a pointer from outside points is not
// enumerable) and no array of unknown length (a flexible array member,
// whose elements a definition elsewhere may give past the type's size).
func plainBytes(t *Type) bool {
	switch t.Kind {
	case Pointer:
		return false
	case Array:
		return t.Len >= 0 && plainBytes(t.Elem)
	case Struct, Union:
		for _, f := range t.Fields {
			if !plainBytes(f.Type) {
				return false
			}
		}
	}
	return true
}

func havocObject(x Expr, t *Type, source string, emit func(Op), n *int) bool {
	switch t.Kind {
	case Int, Bool, Pointer, Float:
		if *n++; *n > MaxInputScalars {
			return false
		}
		emit(&Havoc{LHS: x, Source: source})
		return true
	case Struct:
		for i, f := range t.Fields {
			if f.Name == "" && f.BitWidth > 0 {
				continue // unnamed padding bits
			}
			if !havocObject(&Member{X: x, Field: i, T: f.Type}, f.Type, source, emit, n) {
				return false
			}
		}
		return true
	case Array:
		if t.Len < 0 || t.Len > MaxInputScalars {
			return false
		}
		for i := int64(0); i < t.Len; i++ {
			if !havocObject(&Index{X: x, I: NewConst(IntT, i), T: t.Elem}, t.Elem, source, emit, n) {
				return false
			}
		}
		return true
	}
	return false
}

// StdinState names the global the front ends add for the state of
// standard input when the program reads it with StdinByte's,
// StdinCall's or ScanfCall's functions, one of the Stdin* values.
const StdinState = "__reverify_stdin"

// The values of StdinState.
const (
	// StdinOpen: no read returned EOF and no scanf read.
	StdinOpen = 0
	// StdinAtEOF: a read returned EOF; every later one does (the
	// end-of-file indicator).
	StdinAtEOF = 1
	// StdinScanned: a scanf call read from standard input, and
	// stopped after a number's last digit or at a whitespace: what the
	// next byte may be is not modelled, so a byte read now is an
	// unsupported construct (StdinRead); another scanf is modelled.
	StdinScanned = 2
	// StdinStuck: a scanf call's conversion failed on a character no
	// numeric conversion accepts, which stays unread: every later
	// numeric conversion fails on it at once (EmitScanf).
	StdinStuck = 3
)

// StdinByte reports whether a call of the function name, without a
// body, reads one byte of standard input or EOF (C11 7.21.7.1,
// 7.21.7.6): getchar, and getc and fgetc when their stream is stdin
// (onStdin). Both front ends make such a call an input of int in
// [EOF, UCHAR_MAX] with StdinState's stickiness; on another stream the
// functions stay unmodelled (its end-of-file indicator is the
// stream's).
func StdinByte(name string, onStdin bool) bool {
	switch name {
	case "getchar", "getchar_unlocked":
		return true
	case "getc", "fgetc", "_IO_getc", "getc_unlocked":
		return onStdin
	}
	return false
}

// RandMax is RAND_MAX of glibc (stdlib.h), the largest value rand
// returns; random returns values up to 2^31-1 as well (POSIX random).
const RandMax = 2147483647

// An InputBuilder is where a front end lets the models of the C
// library's input functions (InputModel.Emit, StdinRead, StdinCall)
// emit their operations: they continue the current path of the call,
// as a small structured program the front end lowers to its edges.
type InputBuilder interface {
	// Op continues with op.
	Op(op Op)
	// Assume continues only where cond holds; the executions where it
	// does not end (as an assumption's do).
	Assume(cond Expr)
	// If continues with then where cond holds and with els (nil:
	// nothing) where it does not; both continue after it.
	If(cond Expr, then, els func())
	// While runs body as long as cond holds at its head.
	While(cond Expr, body func())
	// Temp returns a fresh temporary of type t.
	Temp(t *Type) Expr
	// StdinState returns the program's state of standard input (the
	// global StdinState, StdinOpen in Init).
	StdinState() Expr
}

// InputCall reports whether a call of the function name without a body,
// whose result has type res (nil or void: none declared), with nargs
// arguments, is one of the C library's input functions, whose values
// come from outside the program and which have no other effect the
// program can see, and returns the model: Emit then emits it. Both
// front ends use it, so each function means one thing whichever reads
// the program:
//
//   - rand() (C11 7.22.2.1; glibc's RAND_MAX is 2^31-1) and random()
//     (POSIX random): an input in [0, RandMax]; srand and srandom are
//     not modelled here, and need not be: whatever the seed, every
//     value in the range is admitted.
//   - time(t) (C11 7.27.2.4, POSIX time): any time_t value, (time_t)-1
//     (the failure glibc reports) included, also written to *t when t
//     is not NULL.
//   - clock() (C11 7.27.2.1): any clock_t value, (clock_t)-1 (processor
//     time not available) included.
//
// A call whose result type or arguments do not fit (a program declaring
// rand as returning something else than an integer of at least 32 bits,
// time with an argument that is not a pointer) is not modelled: it stays
// an unmodelled call (cfa.Program.Extern), which is sound.
func InputCall(name string, res *Type, nargs int) (InputModel, bool) {
	m, ok := inputFuncs[name]
	if !ok || res == nil || !res.IsInteger() || res.Kind == Bool || res.Bits < 32 || nargs != m.nargs {
		return InputModel{}, false
	}
	return m, true
}

// inputFuncs are InputCall's functions with their models.
var inputFuncs = map[string]InputModel{
	"rand":   {Name: "rand", Ranged: true, Lo: 0, Hi: RandMax},
	"random": {Name: "random", Ranged: true, Lo: 0, Hi: RandMax},
	"clock":  {Name: "clock"},
	"time":   {Name: "time", Store: true, nargs: 1},
}

// IsInputFunc reports whether source, the Source of a Havoc, is the
// value of a call of one of InputCall's functions, or the count or a
// byte of a call of read (ReadSource).
func IsInputFunc(source string) bool {
	_, ok := inputFuncs[source]
	return ok || source == ReadSource
}

// An InputModel is the model of a call of an input function (InputCall).
type InputModel struct {
	Name string // the function, the Source of the Havoc of its value
	// Ranged: the value lies in [Lo, Hi], compared in the signed type of
	// the result's width.
	Ranged bool
	Lo, Hi int64
	// Store: the value is also written to *p for the first argument p
	// when p is not NULL (time).
	Store bool
	nargs int // the number of arguments of the function
}

// Emit emits the model of the call into b: the value into the lvalue
// res (of the call's result type), args the arguments' values. It
// reports false, having emitted nothing, when an argument does not fit
// the model (a Store argument that is not a pointer); the call is then
// to be translated as an unmodelled call.
func (m InputModel) Emit(b InputBuilder, res Expr, args []Expr) bool {
	if m.Store && (len(args) < 1 || args[0].Type().Kind != Pointer) {
		return false
	}
	b.Op(&Havoc{LHS: res, Source: m.Name})
	if m.Ranged {
		t := res.Type()
		st := IntType(t.Bits, true)
		x := Expr(res)
		if !Same(t, st) {
			x = &Cast{X: res, T: st}
		}
		b.Assume(&Binary{Op: LAnd,
			X: &Binary{Op: Ge, X: x, Y: NewConst(st, m.Lo), T: IntT},
			Y: &Binary{Op: Le, X: x, Y: NewConst(st, m.Hi), T: IntT}, T: IntT})
	}
	if m.Store {
		p := args[0]
		pt := PointerTo(res.Type(), p.Type().Bits)
		if !Same(p.Type(), pt) {
			p = &Cast{X: p, T: pt}
		}
		b.If(&Binary{Op: Ne, X: p, Y: NewConst(pt, 0), T: IntT}, func() {
			b.Op(&Assign{LHS: &Deref{X: p, T: res.Type()}, RHS: res})
		}, nil)
	}
	return true
}

// ReadSource is the Source of the Havocs of EmitRead: the count a call
// of read returns, then the bytes it stores, in that order.
const ReadSource = "read"

// ReadCall reports whether a call of the function name without a body,
// whose result has type res, with the argument types params (the
// declared parameter types, which the arguments are converted to), is
// POSIX read (POSIX.1-2017 read(), unistd.h: ssize_t read(int fildes,
// void *buf, size_t nbyte)) that EmitRead models: three parameters, an
// integer descriptor, a pointer buffer and an integer count of the
// pointer's width, and an integer result of the pointer's width
// (ssize_t). Any other declaration (no prototype, another result type)
// stays an unmodelled call (cfa.Program.Extern), which is sound.
func ReadCall(name string, res *Type, params []*Type) bool {
	if name != "read" || res == nil || len(params) != 3 {
		return false
	}
	fd, buf, n := params[0], params[1], params[2]
	return fd.IsInteger() && fd.Kind != Bool && buf.Kind == Pointer &&
		n.IsInteger() && n.Kind != Bool && n.Bits == buf.Bits &&
		res.IsInteger() && res.Kind != Bool && res.Bits == buf.Bits
}

// EmitRead emits, into b, the model of read(fd, buf, nbyte) (ReadCall;
// POSIX.1-2017 read()) on any descriptor, its result stored into the
// lvalue res (ssize_t), args the values of its three arguments: the
// result r is an input (ReadSource) with r = -1 (an error; errno is not
// modelled) or, when fd ≥ 0 (a negative descriptor is never open:
// EBADF), 0 ≤ r ≤ nbyte (r ≤ SSIZE_MAX as a value of ssize_t);
// when r > 0 the bytes buf[0..r) are inputs, read after r and in order,
// and the rest of buf is unchanged; r ≤ 0 changes nothing.
//
// The model is sound and every execution it admits is feasible: the
// descriptor is not tracked, and any descriptor may be a pipe, a socket
// or a terminal, from which POSIX allows a read to return fewer bytes
// than asked for (a short read: as many as are available), none at end
// of file, and any bytes the writer wrote; so every r and every content
// the model admits is one the other end can produce, and every result
// of a real read is admitted. read(0, …) is this model as well, not
// standard input's byte model (StdinRead): it bypasses stdio's buffer
// of stdin, which may already hold bytes fd 0 no longer gives.
//
// The bytes are stored through buf as the program's own writes: buf must
// be valid for them, and a count beyond buf's object is the program's
// out-of-bounds write (Linux fails with EFAULT on an unmapped buffer
// instead, which POSIX does not specify).
func EmitRead(b InputBuilder, res Expr, args []Expr) {
	fd, buf, n := args[0], args[1], args[2]
	rt := res.Type()
	st, ut := IntType(rt.Bits, true), IntType(rt.Bits, false)
	t := b.Temp(rt)
	b.Op(&Havoc{LHS: t, Source: ReadSource})
	r, ru, nu := convInt(t, st), convInt(t, ut), convInt(n, ut)
	fdt := IntType(fd.Type().Bits, true)
	b.Assume(&Binary{Op: LOr,
		X: &Binary{Op: Eq, X: r, Y: NewConst(st, -1), T: IntT},
		Y: &Binary{Op: LAnd,
			X: &Binary{Op: Ge, X: convInt(fd, fdt), Y: NewConst(fdt, 0), T: IntT}, // a negative descriptor is never open (EBADF)
			Y: &Binary{Op: LAnd,
				X: &Binary{Op: Ge, X: r, Y: NewConst(st, 0), T: IntT},
				Y: &Binary{Op: Le, X: ru, Y: nu, T: IntT}, T: IntT}, T: IntT}, T: IntT})
	pt := PointerTo(UCharType, buf.Type().Bits)
	bp := convInt(buf, pt)
	// The loop stores the bytes up to nbyte and to r, which the
	// assumption bounds by nbyte: it ends where its index is r, and the
	// result is that index (or the constant -1), so that an analysis
	// that tracks r only as an unknown value still sees a loop of at
	// most nbyte rounds and a result known on each path.
	b.If(&Binary{Op: Eq, X: r, Y: NewConst(st, -1), T: IntT}, func() {
		b.Op(&Assign{LHS: res, RHS: NewConst(rt, -1)})
	}, func() {
		i := b.Temp(ut)
		b.Op(&Assign{LHS: i, RHS: NewConst(ut, 0)})
		b.While(&Binary{Op: LAnd,
			X: &Binary{Op: Lt, X: i, Y: nu, T: IntT},
			Y: &Binary{Op: Lt, X: i, Y: ru, T: IntT}, T: IntT}, func() {
			c := b.Temp(UCharType)
			b.Op(&Havoc{LHS: c, Source: ReadSource})
			b.Op(&Assign{LHS: &Deref{X: &Binary{Op: Add, X: bp, Y: i, T: pt}, T: UCharType}, RHS: c})
			b.Op(&Assign{LHS: i, RHS: &Binary{Op: Add, X: i, Y: NewConst(ut, 1), T: ut}})
		})
		b.Op(&Assign{LHS: res, RHS: convInt(i, rt)})
	})
}

// StdinRead emits, into b, one read of a byte of standard input by the
// function source (StdinByte's functions, and StdinCall's per byte) and
// returns its value, a temporary of int: an input in [EOF, UCHAR_MAX]
// (C11 7.21.7.1: the byte as an unsigned char converted to int, or EOF);
// once a read returned EOF the end-of-file indicator is set and every
// later read returns EOF (glibc since 2.28 keeps EOF sticky). Read
// errors are not modelled: they are taken as EOF. A read after a scanf
// call (StdinScanned, StdinStuck) is an unsupported construct: which
// byte scanf left next is not modelled (in a program without a scanf
// model, Program.Finish drops that guard).
func StdinRead(b InputBuilder, source string) Expr {
	c := b.Temp(IntT)
	st := b.StdinState()
	b.If(&Binary{Op: Ge, X: st, Y: NewConst(IntT, StdinScanned), T: IntT}, func() {
		b.Op(&Unsupported{Construct: stdinAfterScanf + ", by " + source + " (which bytes scanf left unread is not modelled)"})
	}, nil)
	b.Op(&Havoc{LHS: c, Source: source})
	b.Assume(&Binary{Op: LAnd,
		X: &Binary{Op: Ge, X: c, Y: NewConst(IntT, -1), T: IntT},
		Y: &Binary{Op: Le, X: c, Y: NewConst(IntT, 255), T: IntT}, T: IntT})
	b.If(&Binary{Op: Eq, X: st, Y: NewConst(IntT, StdinAtEOF), T: IntT}, func() {
		b.Op(&Assign{LHS: c, RHS: NewConst(IntT, -1)})
	}, nil)
	b.If(&Binary{Op: Eq, X: c, Y: NewConst(IntT, -1), T: IntT}, func() {
		b.Op(&Assign{LHS: st, RHS: NewConst(IntT, StdinAtEOF)})
	}, nil)
	return c
}

// stdinAfterScanf starts the construct of StdinRead's guard.
const stdinAfterScanf = "a read of standard input after scanf"

// dropStdinGuards makes StdinRead's guards (a read after scanf is
// unsupported) infeasible branches in a program without a scanf model
// (no Havoc of ScanfSource): there the state of standard input is never
// StdinScanned or StdinStuck, and a guard an analysis cannot rule out
// (under a precision that does not track the state) would make every
// byte read UNKNOWN. The guard's branch condition becomes the constant
// 0 and its Unsupported edge a Noop. Program.Finish calls it.
func (p *Program) dropStdinGuards() {
	for _, e := range p.Edges {
		if h, ok := e.Op.(*Havoc); ok && h.Source == ScanfSource {
			return
		}
	}
	for _, e := range p.Edges {
		u, ok := e.Op.(*Unsupported)
		if !ok || !strings.HasPrefix(u.Construct, stdinAfterScanf) {
			continue
		}
		for _, in := range e.From.In {
			a, ok := in.Op.(*Assume)
			if !ok || !a.Truth {
				continue
			}
			zero := NewConst(IntT, 0) // one condition: the pair stays complementary
			for _, sib := range in.From.Out {
				if s, ok := sib.Op.(*Assume); ok && s.Cond == a.Cond {
					sib.Op = &Assume{Cond: zero, Truth: s.Truth}
				}
			}
		}
		e.Op = &Noop{Label: "skip"}
	}
}

// IsStdinRead reports whether source, the Source of a Havoc, is a byte
// of standard input read by StdinRead (for StdinByte's functions or
// StdinCall's): the reproducer puts those bytes on its standard input.
func IsStdinRead(source string) bool {
	return StdinByte(source, true) || source == "fgets" || source == "fread"
}

// StdinCall reports whether a call of the function name without a body
// with nargs arguments reads a block of standard input that StdinCall's
// model (EmitStdinCall) emits byte by byte with StdinRead, sharing the
// end-of-file indicator with getchar and consuming the same bytes the
// C library's functions would (they read from stdin's one buffer):
//
//   - fgets(buf, n, stdin) (C11 7.21.7.2, glibc iofgets.c): n ≤ 0
//     returns NULL and reads nothing; n = 1 stores a NUL in buf[0] and
//     returns buf; otherwise it reads bytes into buf until n-1 are read,
//     a newline is read (and stored) or EOF; EOF before any byte returns
//     NULL with buf unchanged, else a NUL follows the bytes and it
//     returns buf.
//   - fread(buf, 1, n, stdin) (C11 7.21.8.1): reads up to n bytes into
//     buf, fewer only at EOF, and returns their number (size_t). Only an
//     element size of the constant 1 is modelled (sizeArgOne).
//
// onStdin says whether the stream argument is stdin. Other streams and
// fread of other element sizes stay unmodelled; read(2) on descriptor 0
// is ReadCall's model, a source of its own (it bypasses stdin's buffer).
func StdinCall(name string, nargs int, onStdin, sizeArgOne bool) bool {
	switch name {
	case "fgets", "fgets_unlocked":
		return nargs == 3 && onStdin
	case "fread", "fread_unlocked":
		return nargs == 4 && onStdin && sizeArgOne
	}
	return false
}

// EmitStdinCall emits StdinCall's model of the call of name into b,
// with args the values of its arguments converted to the parameter
// types (buf a pointer, n an integer), its result stored into res (an
// lvalue of the call's result type: char * for fgets, size_t for
// fread). The bytes are inputs of source "fgets" or "fread".
func EmitStdinCall(b InputBuilder, name string, res Expr, args []Expr) {
	src := strings.TrimSuffix(name, "_unlocked")
	buf, n := args[0], args[1]
	if src == "fread" {
		n = args[2]
	}
	nt := n.Type()
	one := NewConst(nt, 1)
	i := b.Temp(nt)
	done := b.Temp(IntT)
	ct := buf.Type().Elem
	if ct == nil || !ct.IsInteger() || ct.Bits != 8 {
		ct = CharType
	}
	bp, pt := buf, PointerTo(ct, buf.Type().Bits)
	if !Same(buf.Type(), pt) {
		bp = &Cast{X: buf, T: pt}
	}
	at := func(k Expr) Expr {
		return &Deref{X: &Binary{Op: Add, X: bp, Y: k, T: pt}, T: ct}
	}
	// the loop reading up to limit bytes, stopping at EOF and, for
	// fgets, after a newline
	loop := func(limit Expr, stopAtNewline bool) {
		b.Op(&Assign{LHS: i, RHS: NewConst(nt, 0)})
		b.Op(&Assign{LHS: done, RHS: NewConst(IntT, 0)})
		b.While(&Binary{Op: LAnd,
			X: &Binary{Op: Eq, X: done, Y: NewConst(IntT, 0), T: IntT},
			Y: &Binary{Op: Lt, X: i, Y: limit, T: IntT}, T: IntT}, func() {
			c := StdinRead(b, src)
			b.If(&Binary{Op: Eq, X: c, Y: NewConst(IntT, -1), T: IntT}, func() {
				b.Op(&Assign{LHS: done, RHS: NewConst(IntT, 1)})
			}, func() {
				b.Op(&Assign{LHS: at(i), RHS: &Cast{X: c, T: ct}})
				b.Op(&Assign{LHS: i, RHS: &Binary{Op: Add, X: i, Y: one, T: nt}})
				if stopAtNewline {
					b.If(&Binary{Op: Eq, X: c, Y: NewConst(IntT, '\n'), T: IntT}, func() {
						b.Op(&Assign{LHS: done, RHS: NewConst(IntT, 1)})
					}, nil)
				}
			})
		})
	}
	if src == "fread" {
		loop(n, false)
		b.Op(&Assign{LHS: res, RHS: convInt(i, res.Type())})
		return
	}
	null := NewConst(res.Type(), 0)
	bufRes := Expr(buf)
	if !Same(buf.Type(), res.Type()) {
		bufRes = &Cast{X: buf, T: res.Type()}
	}
	b.If(&Binary{Op: Le, X: n, Y: NewConst(nt, 0), T: IntT}, func() {
		b.Op(&Assign{LHS: res, RHS: null})
	}, func() {
		loop(&Binary{Op: Sub, X: n, Y: one, T: nt}, true)
		b.If(&Binary{Op: LAnd,
			X: &Binary{Op: Eq, X: i, Y: NewConst(nt, 0), T: IntT},
			Y: &Binary{Op: Gt, X: n, Y: one, T: IntT}, T: IntT}, func() {
			b.Op(&Assign{LHS: res, RHS: null})
		}, func() {
			b.Op(&Assign{LHS: at(i), RHS: NewConst(ct, 0)})
			b.Op(&Assign{LHS: res, RHS: bufRes})
		})
	})
}

func convInt(x Expr, t *Type) Expr {
	if Same(x.Type(), t) {
		return x
	}
	return &Cast{X: x, T: t}
}

// GetenvSource starts the Source of the inputs of a call of getenv
// (EnvName): per name, at its first call, whether the variable is set
// (0 or 1; "getenv NAME"), its value's length ("getenv NAME length"),
// then EnvBytes bytes ("getenv NAME[i]").
const GetenvSource = "getenv"

// EnvBytes is how many bytes of an environment string are inputs of
// their own (GetenvSource); the bytes past them are any bytes, which a
// counterexample check (engine/interp) refuses to rest on.
const EnvBytes = 64

// EnvMaxLen is the longest value of an environment variable: Linux
// limits each string of the environment, NAME=value and its NUL, to
// MAX_ARG_STRLEN (32 pages of 4 KiB, 131,072 bytes); a model with a
// smaller bound would make TRUE unsound.
const EnvMaxLen = 131072 - 1

// EnvName reports whether c is a call of getenv (C11 7.22.4.6, POSIX
// getenv) without a body whose argument is a string literal, and returns
// that name: the call returns NULL or a pointer to a string of at most
// EnvMaxLen bytes outside the program's objects (neither freeable nor
// leaked), the same pointer for the same name at every call (the program
// does not change the environment: setenv and putenv stay unmodelled
// calls, after which the SMT encoding and the replay no longer model
// it), and writes nothing. A program that names environ (or __environ,
// _environ) may change the environment itself: no call of it is one. A call with
// another argument (a name computed at run time), or of getenv declared
// otherwise (no result pointer), or with an empty name or one containing
// '=', is not one: it stays an unmodelled call.
func EnvName(p *Program, c *Call) (string, bool) {
	if c.Fn != "getenv" || p.Func(c.Fn) != nil || len(c.Args) != 1 ||
		c.Result != nil && c.Result.Type().Kind != Pointer {
		return "", false
	}
	for _, v := range p.Vars {
		if v.Global && (v.Orig == "environ" || v.Orig == "__environ" || v.Orig == "_environ") {
			return "", false // the program may set the environment itself
		}
	}
	x := c.Args[0]
	for {
		if k, ok := x.(*Cast); ok && k.T.Kind == Pointer {
			x = k.X
			continue
		}
		break
	}
	a, ok := x.(*AddrOf)
	if !ok {
		return "", false
	}
	var lit *StringLit
	switch y := a.X.(type) {
	case *StringLit:
		lit = y
	case *Index:
		if k, ok := y.I.(*Const); ok && k.V == 0 {
			lit, _ = y.X.(*StringLit)
		}
	}
	if lit == nil || lit.Val == "" || strings.ContainsAny(lit.Val, "=\x00") {
		// glibc's getenv returns NULL for the empty name, and a name
		// with '=' matches part of another variable's value
		return "", false
	}
	return lit.Val, true
}
