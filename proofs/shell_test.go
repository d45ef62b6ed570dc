package proofs

import (
	"strings"
	"testing"
)

func TestShellEcho(t *testing.T) {
	for _, c := range []struct {
		cmd, out string
		ok       bool
	}{
		{"echo $((10 + 1))", "11", true},
		{"echo $(( $(( 64 / 2 )) +1 )) ", "33", true},
		{"echo $((1 + $((2 * 3)) - 4 % 3))", "6", true},
		{"echo $((0x10 + 010))", "24", true},
		{"echo $((-(3 - 5) * 2))", "4", true},
		{"echo  a   $((1))  b", "a 1 b", true},
		{"echo", "", true},
		{"echo $((1 / 0))", "", false},
		{"echo $((9223372036854775807 + 1))", "", false},
		{"echo $((9223372036854775808))", "", false},
		{"echo $((18446744073709551615ULL + 1))", "", false},
		{"echo $((1 +))", "", false},
		{"echo $((1)", "", false},
		{"echo $(date)", "", false},
		{"echo `date`", "", false},
		{"echo a; rm -rf x", "", false},
		{"echo *", "", false},
		{"dirname x", "", false},
		{"echoes 1", "", false},
	} {
		out, ok := shellEcho(c.cmd)
		if out != c.out || ok != c.ok {
			t.Errorf("shellEcho(%q) = %q, %v; want %q, %v", c.cmd, out, ok, c.out, c.ok)
		}
	}
}

func TestParseUnwind(t *testing.T) {
	for _, c := range []struct {
		w  string
		id string
		n  int
		ok bool
	}{
		{"memcpy_impl.0:11", "memcpy_impl.0", 11, true},
		{"2:f.1:3", "f.1", 3, true},
		{"__CPROVER_file_local_lookup3_inl_hashlittle2.0:9", "__CPROVER_file_local_lookup3_inl_hashlittle2.0", 9, true},
		{"f.0:", "", 0, false},
		{"f.0:-1", "", 0, false},
		{":3", "", 0, false},
		{"x:f.0:3", "", 0, false},
	} {
		id, n, ok := ParseUnwind(c.w)
		if id != c.id || n != c.n || ok != c.ok {
			t.Errorf("ParseUnwind(%q) = %q, %d, %v; want %q, %d, %v", c.w, id, n, ok, c.id, c.n, c.ok)
		}
	}
}

// FuzzShellEcho: no input panics, and an evaluated command leaves no
// expansion behind.
func FuzzShellEcho(f *testing.F) {
	for _, s := range []string{"echo $((10 + 1))", "echo $(( $(( 64 / 2 )) +1 ))", "echo $((1/0))", "echo a b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		out, ok := shellEcho(cmd)
		if ok && strings.ContainsAny(out, "$()") {
			t.Fatalf("shellEcho(%q) = %q", cmd, out)
		}
	})
}
