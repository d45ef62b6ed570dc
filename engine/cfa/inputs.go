package cfa

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

// StdinEOF names the global the front ends add for standard input's
// end-of-file indicator when the program reads standard input with
// StdinByte's functions: once a read returned EOF, every later one does.
const StdinEOF = "__reverify_stdin_eof"

// StdinByte reports whether a call of the function name, without a
// body, reads one byte of standard input or EOF (C11 7.21.7.1,
// 7.21.7.6): getchar, and getc and fgetc when their stream is stdin
// (onStdin). Both front ends make such a call an input of int in
// [EOF, UCHAR_MAX] with StdinEOF's stickiness; on another stream the
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
