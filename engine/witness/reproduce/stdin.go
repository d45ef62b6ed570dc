package reproduce

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/reverify/reverify/engine/cfa"
)

// A counterexample that reads standard input byte by byte (getchar, and
// getc or fgetc of stdin: cfa.StdinByte; fgets and fread of stdin, whose
// models read byte by byte: cfa.StdinCall) or with scanf's numeric
// conversions (cfa.EmitScanf: the text stdinInput.scanf writes) gets its bytes on the
// reproducer's standard input, so that the C library's own functions read
// them: the front ends make each such call an input in [EOF, 255], and
// once one returned EOF every later one does (the end-of-file indicator).
// The bytes are the values read before the first EOF, in read order; the
// input ends after them, which is that EOF (a counterexample that never
// reads EOF does not look further). The harness carries them in lines
// starting with stdinPrefix, as printf(1) octal escapes; reproduce.sh
// pipes them in with printf and `reverify reproduce` feeds them (Stdin).

// stdinPrefix starts a harness line that gives bytes of standard input.
const stdinPrefix = "// reverify-stdin: "

// stdinBytesPerLine is the number of bytes per stdinPrefix line.
const stdinBytesPerLine = 16

// stdinConsumers are functions without body that read standard input
// (with stdin, or implicitly) other than byte by byte: a counterexample
// that calls them besides getchar cannot be fed its bytes, since the
// front end does not model what they consume (fgets and fread are
// among them where their model does not apply: fread of an element
// size other than 1, a declaration that does not fit).
var stdinConsumers = map[string]bool{
	"ungetc": true, "scanf": true, "vscanf": true, "fscanf": true, "vfscanf": true,
	"__isoc99_scanf": true, "__isoc99_fscanf": true, "__isoc99_vscanf": true, "__isoc99_vfscanf": true,
	"gets": true, "fgets": true, "fread": true, "getline": true, "getdelim": true, "getw": true,
	"getwchar": true, "fgetwc": true, "getwc": true, "fgetws": true, "fgets_unlocked": true, "fread_unlocked": true,
}

// implicitStdin are the stdinConsumers that read stdin without naming it.
var implicitStdin = map[string]bool{
	"scanf": true, "vscanf": true, "__isoc99_scanf": true, "__isoc99_vscanf": true, "gets": true, "getwchar": true,
}

// stdinRead reports whether step i reads a byte of standard input
// (cfa.IsStdinRead) or a choice of scanf's model (cfa.IsScanf).
func (c *ctx) stdinRead(i int) (string, bool) {
	if i < 0 || i >= len(c.v.Path) || c.v.Path[i].Edge == nil {
		return "", false
	}
	h, ok := c.v.Path[i].Edge.Op.(*cfa.Havoc)
	if !ok || !cfa.IsStdinRead(h.Source) && !cfa.IsScanf(h.Source) {
		return "", false
	}
	return h.Source, true
}

// stdinInput is standard input as the counterexample reads it.
type stdinInput struct {
	read  bool     // the counterexample reads standard input
	bytes []byte   // up to the first EOF
	notes []string // per read: the value, the function and where
}

// stdin returns the bytes of standard input the counterexample reads
// before its target, or why a reproducer cannot feed them.
func (c *ctx) stdin() (stdinInput, error) {
	var in stdinInput
	eof := false
	for i := 0; i < c.target && i < len(c.v.Path); i++ {
		s := c.v.Path[i]
		if s.Edge == nil {
			continue
		}
		at := s.Edge.Pos.Start.String()
		if call, ok := s.Edge.Op.(*cfa.Call); ok && s.Kind == cfa.Intra && c.v.Program.Func(call.Fn) == nil && readsStdin(call) {
			return stdinInput{}, fmt.Errorf("witness: the counterexample reads standard input with %s at %s, whose reads a reproducer cannot feed (only getchar and getc or fgetc of stdin are modelled)", call.Fn, at)
		}
		fn, ok := c.stdinRead(i)
		if !ok {
			continue
		}
		in.read = true
		if eof {
			continue // the end-of-file indicator is set: EOF again
		}
		x, ok := c.inputs[i]
		if !ok {
			return stdinInput{}, fmt.Errorf("witness: the counterexample does not give the byte %s reads at %s", fn, at)
		}
		if cfa.IsScanf(fn) {
			eof = in.scanf(fn, x.Bits, x.Type, at)
			continue
		}
		v := cfa.SignExtend(x.Bits, 32)
		switch {
		case v == -1:
			eof = true
			in.notes = append(in.notes, fmt.Sprintf("EOF: %s at %s (the input ends)", fn, at))
		case v >= 0 && v <= 255:
			in.bytes = append(in.bytes, byte(v))
			in.notes = append(in.notes, fmt.Sprintf("%s: %s at %s", byteName(byte(v)), fn, at))
		default:
			return stdinInput{}, fmt.Errorf("witness: the counterexample's %s at %s returns %d, neither a byte nor EOF", fn, at, v)
		}
	}
	return in, nil
}

// scanf appends the text that makes scanf's model choose bits at the
// havoc of source (cfa.EmitScanf) and reports whether the input ends
// there: each stored value as its digits after a space (a numeric
// conversion skips it and stops at the next space, at "?" or at the
// end), "?" after a space where a conversion fails on a character (the
// result 0, or ScanfEndSource's 0: no numeric conversion accepts it, and
// it stays unread), and nothing more where the input ends (the result
// EOF, or ScanfEndSource's other values).
func (in *stdinInput) scanf(source string, bits uint64, t *cfa.Type, at string) (eof bool) {
	switch source {
	case cfa.ScanfSource:
		switch k := cfa.SignExtend(bits, 32); k {
		case -1:
			in.notes = append(in.notes, fmt.Sprintf("EOF: scanf at %s returns EOF (the input ends)", at))
			return true
		case 0:
			in.bytes = append(in.bytes, " ?"...)
			in.notes = append(in.notes, fmt.Sprintf("\" ?\": scanf at %s returns 0 (its first conversion fails on '?', which stays unread)", at))
		default:
			in.notes = append(in.notes, fmt.Sprintf("scanf at %s returns %d", at, k))
		}
		return false
	case cfa.ScanfEndSource:
		if bits == 0 {
			in.bytes = append(in.bytes, " ?"...)
			in.notes = append(in.notes, fmt.Sprintf("\" ?\": the next conversion of scanf at %s fails on '?', which stays unread", at))
			return false
		}
		in.notes = append(in.notes, fmt.Sprintf("EOF: the next conversion of scanf at %s meets the end of the input", at))
		return true
	}
	spec := strings.TrimPrefix(source, cfa.ScanfSource+" ")
	w := 64
	if t != nil && t.Bits > 0 {
		w = t.Bits
	}
	if w < 64 {
		bits &= 1<<uint(w) - 1
	}
	var text string
	switch spec[len(spec)-1] {
	case 'd', 'i':
		text = strconv.FormatInt(cfa.SignExtend(bits, w), 10)
	case 'x', 'X':
		text = strconv.FormatUint(bits, 16)
	case 'o':
		text = strconv.FormatUint(bits, 8)
	default:
		text = strconv.FormatUint(bits, 10)
	}
	in.bytes = append(in.bytes, ' ')
	in.bytes = append(in.bytes, text...)
	in.notes = append(in.notes, fmt.Sprintf("%q: %s of scanf at %s", " "+text, spec, at))
	return false
}

// readsStdin reports whether a call of a function without body consumes
// standard input besides byte by byte.
func readsStdin(call *cfa.Call) bool {
	if !stdinConsumers[call.Fn] {
		return false
	}
	if implicitStdin[call.Fn] {
		return true
	}
	for _, a := range call.Args {
		for _, v := range cfa.Vars(a) {
			if v.Global && v.Orig == "stdin" {
				return true
			}
		}
	}
	return false
}

// byteName describes a byte: its value, and the character when printable.
func byteName(b byte) string {
	if b >= 0x20 && b < 0x7f && b != '\'' && b != '\\' && b != '*' && b != '/' {
		return fmt.Sprintf("%d '%c'", b, b)
	}
	return strconv.Itoa(int(b))
}

// printfEscape writes data as a printf(1) format of octal escapes, one
// per byte: safe inside single quotes and free of conversions.
func printfEscape(data []byte) string {
	var b strings.Builder
	for _, x := range data {
		fmt.Fprintf(&b, `\%03o`, x)
	}
	return b.String()
}

// write writes the harness lines that carry the bytes, with comments.
func (in stdinInput) write(b *strings.Builder) {
	if !in.read {
		return
	}
	fmt.Fprintf(b, "/* Standard input, as the counterexample reads it (%d byte(s); run the\n * reproducer with them on its standard input, as reproduce.sh does):\n", len(in.bytes))
	for _, n := range in.notes {
		fmt.Fprintf(b, " *   %s\n", comment(n))
	}
	b.WriteString(" */\n")
	for i := 0; i < len(in.bytes) || i == 0; i += stdinBytesPerLine {
		b.WriteString(stdinPrefix + printfEscape(in.bytes[i:min(i+stdinBytesPerLine, len(in.bytes))]) + "\n")
	}
	b.WriteString("\n")
}

// Stdin returns the bytes a reproducer needs on its standard input (the
// counterexample's reads of getchar and getc or fgetc of stdin), read
// from its lines starting "// reverify-stdin: "; ok is false when it reads
// no standard input.
func Stdin(reproducer string) (data []byte, ok bool) {
	for _, l := range strings.Split(reproducer, "\n") {
		s, found := strings.CutPrefix(l, stdinPrefix)
		if !found {
			continue
		}
		ok = true
		s = strings.TrimSpace(s)
		for len(s) >= 4 && s[0] == '\\' {
			n, err := strconv.ParseUint(s[1:4], 8, 8)
			if err != nil {
				break
			}
			data = append(data, byte(n))
			s = s[4:]
		}
	}
	return data, ok
}

// StdinPrintf returns the printf(1) format that writes Stdin's bytes
// (octal escapes: quote it in single quotes).
func StdinPrintf(data []byte) string { return printfEscape(data) }
