package reproduce

import (
	"strings"
	"testing"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/witness"
	"github.com/reverify/reverify/engine/witness/witnesstest"
)

// TestReproducerStdinBytes: the bytes getchar and getc(stdin) read
// before the first EOF are the reproducer's standard input (Stdin reads
// them back, printf escapes write them), a read after that EOF adds
// nothing (the end-of-file indicator), and a counterexample that also
// reads standard input with a function the front end does not model
// (ungetc) has no reproducer.
func TestReproducerStdinBytes(t *testing.T) {
	const src = `#include <stdio.h>
extern void reach_error(void);
int main(void) {
  int a = getchar();
  int b = getc(stdin);
  int c = getchar();
  int d = getchar();
  if (a == 'h' && b == 0 && c == EOF && d == EOF) reach_error();
  return 0;
}
`
	p := witnesstest.Translate(t, cfa.LP64, "u.c", src)
	path, inputs, reached := witnesstest.Execute(t, p, "main", []uint64{'h', 0, 0xffffffff, 'x'}, witnesstest.ExecOpts{})
	if !reached {
		t.Fatal("no violation")
	}
	v := &witness.Violation{Program: p, Path: path, Inputs: inputs, Task: witness.Task{Contents: map[string]string{"u.c": src}}}
	harness, err := Reproducer(v)
	if err != nil {
		t.Fatal(err)
	}
	data, ok := Stdin(harness)
	if !ok || string(data) != "h\x00" {
		t.Errorf("Stdin = %q, %v; want \"h\\x00\"\n%s", data, ok, harness)
	}
	for _, want := range []string{stdinPrefix + `\150\000` + "\n", "104 'h': getchar at u.c:4:", "EOF: getchar at u.c:6:", `printf '\150\000' | ./repro`} {
		if !strings.Contains(harness, want) {
			t.Errorf("harness lacks %q:\n%s", want, harness)
		}
	}
	if strings.Contains(harness, `"getchar"`) {
		t.Errorf("the bytes of standard input are among the nondet values:\n%s", harness)
	}
	if _, ok := Stdin("int main(void) { return 0; }\n"); ok {
		t.Error("Stdin of a harness without standard input")
	}

	const unget = `#include <stdio.h>
extern void reach_error(void);
int main(void) {
  int c = getchar();
  ungetc(c, stdin);
  int d = getchar();
  if (c == 'q' && d == 'r') reach_error();
  return 0;
}
`
	p = witnesstest.Translate(t, cfa.LP64, "u.c", unget)
	path, inputs, reached = witnesstest.Execute(t, p, "main", []uint64{'q', 'r'}, witnesstest.ExecOpts{})
	if !reached {
		t.Fatal("no violation")
	}
	v = &witness.Violation{Program: p, Path: path, Inputs: inputs, Task: witness.Task{Contents: map[string]string{"u.c": unget}}}
	if _, err := Reproducer(v); err == nil || !strings.Contains(err.Error(), "reads standard input with ungetc at u.c:5:") {
		t.Errorf("err %v, want the unmodelled ungetc", err)
	}
}
